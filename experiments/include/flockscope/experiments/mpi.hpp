// `flockscope sweep` (and `consensus`) as an MPI job: `mpirun -n P flockscope sweep ...` or
// `srun flockscope sweep ...`. Rank 0 parses the command line, owns the output folder and
// runs the sweep as a single process does, with the other ranks as a SweepRemote: they take run ids from its
// queue (a few at a time, so slow runs leave no rank idle), simulate them on --jobs threads
// each, and send the rows back. Ranks other than 0 never read the command line or write files.
//
// A plain launch never touches MPI: the job is recognised by the launcher's environment
// (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK), and MPI is initialised only then.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "flockscope/experiments/sweep.hpp"

namespace flockscope::experiments::mpi {

// First thing in main. Under an MPI launcher it joins the job: a rank other than 0 serves
// sweeps here until rank 0 lets it go and returns its exit code; rank 0 and a plain launch
// get nothing back and go on to the command line.
std::optional<int> enter(int& argc, char**& argv);

// Last thing in rank 0's main, with its exit code: lets the other ranks go (or, when the
// job was stopped or lost a rank, ends them) and leaves the job. Returns the exit code.
int leave(int exit_code);

// Ranks in the job (1 when not launched by MPI).
int ranks();

// Whether a progress bar on stderr reaches a terminal: stderr itself, or, when an MPI
// launcher on this host pipes it (mpirun does), the launcher's own stderr.
bool progress_terminal();

// Rank 0 of a job with more than one rank: the other ranks as run_sweep's remote, each on
// `jobs` threads (0: all its cores). Sets `stop` (and says why, naming the rank, and how
// many runs are kept in `partial_file`) when a rank dies, fails, or is stopped by a signal.
// Null when this process is alone.
std::unique_ptr<SweepRemote> sweep_remote(const SweepSpec& s, int jobs, std::atomic<bool>& stop,
                                          const std::string& partial_file, const char* command);

}  // namespace flockscope::experiments::mpi
