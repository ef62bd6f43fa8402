/*
 * cli.h: oracle/cli/, the bufdiff command.  Table of contents in
 * data-flow order:
 *
 *   version.c  the version string
 *   cli.c      the command line: one table of commands and one of flags,
 *              parsed with getopt_long into Args; help generated from the
 *              tables; "did you mean" (docs/cli.md)
 *   main.c     the commands run, check, print, bufferize, explain, export,
 *              strategies, plot, and the dispatch over cli.c's commands
 *   fuzz_cli.c `bufdiff fuzz`: Args -> FuzzOpts; `fuzz --merge`
 *   reduce_cli.c  `bufdiff reduce`
 *   import_cli.c  `bufdiff import`
 *   lab.c      `bufdiff lab cache`: the seed's LRU cache toy (docs/lab.md)
 *
 * Args needs bufferize.h only; each file includes the rooms it calls
 * (main.c: cases, mlir, harness, report).
 */
#ifndef BUFDIFF_CLI_H
#define BUFDIFF_CLI_H

#include "bufferize.h"

struct RunConfig;       /* harness.h */
struct ExternalOpts;    /* mlir.h */

/* ----------------------------------------------------------- version.c */

extern const char bufdiff_version[];

/* --------------------------------------------------------------- cli.c */

/* The commands, in the order `bufdiff --help` lists them. */
typedef enum CliCmd {
	CLI_RUN, CLI_CHECK, CLI_PRINT, CLI_BUFFERIZE, CLI_EXPLAIN, CLI_FUZZ,
	CLI_REDUCE, CLI_EXPORT, CLI_IMPORT, CLI_NATIVE, CLI_UPSTREAM, CLI_PLOT,
	CLI_LAB,
	CLI_STRATEGIES,
	CLI_HELP, CLI_NCMDS
} CliCmd;

/* Every flag's value (cli.c's table says which commands take it and what
 * it holds when not given), and the positional arguments. */
typedef struct Args {
	CliCmd cmd;
	const char *name;               /* the command's name */
	const char **paths;             /* positional arguments ("-": stdin) */
	int npaths;
	const Strategy *strategy;       /* --strategy; NULL: not given */
	Schedule schedule;              /* --schedule, when has_schedule */
	bool has_schedule;
	int nrandom;                    /* --schedules N (8) */
	bool json;
	const char *junit, *trace, *plan, *out;
	const char *html;               /* --html FILE (run, plot, lab) or DIR */
	long long max_work;             /* --max-work N; 0: the default */
	long long max_memory;           /* --max-memory BYTES; 0: the default */
	double timeout;                 /* --timeout SEC; 0: none */
	long long overhead;             /* --alloc-overhead BYTES */
	int run;                        /* --run I, 1-based; 0: not given */
	int jobs;                       /* check -j N (--jobs): workers */
	const char *filter;             /* check --filter PATTERN */
	bool allow_exec;                /* --allow-exec (trust.c) */
	int ntrust;                     /* --trust DIR given (trust.c holds
					 * the directories) */
	/* fuzz */
	uint64_t seed;                  /* --seed N (0) */
	long long count;                /* --count K; 0: not given */
	double seconds;                 /* --time SEC; 0: not given */
	int shard, nshards;             /* --shard I/N (0/1) */
	int max_ops;                    /* --max-ops M (12) */
	unsigned mix;                   /* --mix LIST (GEN_ALL) */
	int tool_batch;                 /* --tool-batch N; 0: not given */
	bool no_reduce, no_copies, quiet, allow_races;
	const char *target;              /* --target NAME; NULL: the strategy's */
	bool confirm;                   /* run/check --confirm */
	long long max_failures;         /* --max-failures N; 0: no limit */
	bool merge;                     /* --merge: paths are summaries */
	int stats_every;                /* --stats-every SEC; -1: not given */
	bool resume;                    /* --resume: from --out's stats file */
	/* import */
	const char *func, *tool;
	bool no_tool;
	long long import_seed;          /* import --seed N (1) */
	double tool_timeout;            /* --tool-timeout SEC (60) */
	const char *mlir_options;       /* --mlir-options OPTS; NULL: none */
	const char *mlir_pipeline;      /* --mlir-pipeline P; NULL: the default */
	int mlir_version;               /* --mlir-version N; 0: the tool's */
	const char *emit_mlir;          /* reduce --emit-mlir FILE */
	const char *keep_tool_io;       /* --keep-tool-io DIR (tool.c) */
	int mlir_route;                 /* --mlir-route R (a MlirRoute) */
	/* lab cache */
	int lab_cap, lab_stride, lab_requests, lab_step; /* (4, 4, 16, 0) */
	bool given[128];                /* by cli.c's flag row: given */
} Args;

/* argv (argv[1] the command) -> a: 0 to run the command, -1 when help was
 * printed (exit 0), STATUS_BAD after a usage error on stderr.  Free a
 * with cli_args_free in every case. */
int cli_parse(int argc, char **argv, Args *a);
void cli_args_free(Args *a);
/* "bufdiff CMD: MESSAGE" and "(see bufdiff help CMD)" on stderr:
 * STATUS_BAD. */
int cli_usage(const Args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The first flag given on a's command line that is not in keep[] (NULL
 * ended), as "--name"; NULL when none. */
const char *cli_given_except(const Args *a, const char *const *keep);
/* The closest of names[0..n) to word by edit distance, or NULL when none
 * is close enough to suggest. */
const char *cli_nearest(const char *word, const char *const *names, int n);

/* ---------------------------------------------------------- fuzz_cli.c */

/* `bufdiff fuzz ...` (argv[1] is "fuzz"): exit code as fuzz_run;
 * fuzz_main the same from parsed arguments. */
int cmd_fuzz(int argc, char **argv);
/* The outside strategies' options of a (--tool-timeout, --mlir-options,
 * --mlir-version, --mlir-pipeline, --tool-batch) into *o, for the run
 * configuration (RunConfig.tool). */
void cli_tool_options(const Args *a, struct ExternalOpts *o);
int fuzz_main(const Args *a, const struct RunConfig *cfg);

/* -------------------------------------------------------- reduce_cli.c */

/* `bufdiff reduce CASE [--run I] [--plan FILE] [--out FILE]`: 0 reduced,
 * 1 the run does not fail, 2 bad input or usage. */
int cmd_reduce(const Args *a, const struct RunConfig *cfg);

/* -------------------------------------------------------- import_cli.c */

/* `bufdiff import FILE.mlir [--func NAME] [--seed N] [--out CASE]
 * [--tool TOOL | --no-tool] [--tool-timeout SEC]`: 0, or 2 with one
 * diagnostic on stderr. */
int cmd_import(const Args *a);
/* `run`, `check`, ... FILE.mlir[#N]: case_load imports it on the fly with
 * a's --tool, --no-tool and --tool-timeout (docs/import.md); and
 * --keep-tool-io DIR.  0, or STATUS_BAD after a usage error. */
int import_cli_config(const Args *a);
/* The -split-input-file sections of FILE.mlir (`check` checks each as
 * FILE.mlir#N); 1 for anything else. */
int import_cli_sections(const char *path);
/* native_cli.c: `bufdiff native CASE` */
int cmd_native(const Args *a);
int cmd_upstream(const Args *a);

/* --------------------------------------------------------------- lab.c */

/* `bufdiff lab cache [--capacity C] [--stride S] [--requests N] [--step K]
 * [--html FILE]`: 0, or 2 on bad usage. */
int cmd_lab(const Args *a);

#endif
