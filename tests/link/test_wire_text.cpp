// Text from the wire made printable: valid UTF-8 kept, controls and broken bytes escaped, so
// a board's name or log line can neither drive the terminal nor break link.json.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "link/wire_text.hpp"

using flockscope::link::printable;

TEST(WireText, PlainAndUnicodeTextIsKept) {
  EXPECT_EQ(printable("virtual-board"), "virtual-board");
  EXPECT_EQ(printable("Pico \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\xa6"), "Pico \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\xa6");
  EXPECT_EQ(printable(""), "");
}

TEST(WireText, TerminalControlsAreEscaped) {
  // Clear screen, retitle the terminal (OSC 0 ... BEL), carriage return, a C1 CSI (U+009B).
  EXPECT_EQ(printable("\x1b[2Jhi\x1b]0;pwned\x07\r\n\t\x7f"), "\\x1b[2Jhi\\x1b]0;pwned\\x07\\x0d\\x0a\\x09\\x7f");
  EXPECT_EQ(printable("a\xc2\x9b" "31mb"), "a\\u{009b}31mb");
  // A right-to-left override would reverse what the terminal shows after it.
  EXPECT_EQ(printable("abc\xe2\x80\xae" "def"), "abc\\u{202e}def");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  // A backslash the board sent stays distinguishable from an escape.
  EXPECT_EQ(printable("C:\\x1b"), "C:\\\\x1b");
}

TEST(WireText, InvalidUtf8BecomesEscapedBytesAndJsonAcceptsTheResult) {
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                  // truncated
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(printable("ok\x80ok"), "ok\\x80ok");          // a stray continuation byte
  // Every byte value, alone and after a lead byte: the result is always valid JSON text.
  for (int a = 0; a < 256; ++a)
    for (int b : {0x00, 0x41, 0x80, 0xbf, 0xc0, 0xff}) {
      const std::string s{char(a), char(b)};
      EXPECT_NO_THROW((void)nlohmann::json(printable(s)).dump()) << a << " " << b;
      for (char c : printable(s)) EXPECT_FALSE((unsigned char)c < 0x20 || c == 0x7f) << a << " " << b;
    }
}
