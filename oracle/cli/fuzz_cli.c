/*
 * fuzz_cli.c: `bufdiff fuzz`: the parsed arguments as FuzzOpts, then
 * fuzz_command (fuzz/fuzz.c) runs and reports; `fuzz --merge` adds up
 * shard summaries (fuzz/fuzz_bucket.c).
 */
#include <unistd.h>

#include "cli.h"
#include "mlir.h"
#include "fuzz.h"

/* `fuzz --merge FILE... [--json]`: the shards' summaries added up; every
 * other flag would be ignored, so it is refused. */
static int
merge_main(const Args *a)
{
	static const char *const keep[] = {"merge", "json", NULL};
	const char *other = cli_given_except(a, keep);

	if (other)
		return cli_usage(a, "%s does nothing with --merge (it adds up "
				 "the shards' summaries): leave it out", other);
	if (!a->npaths)
		return cli_usage(a, "--merge wants the shards' --json "
				 "summaries (files, or - for stdin)");
	return fuzz_merge(a->npaths, a->paths, a->json);
}

int
fuzz_main(const Args *a, const RunConfig *cfg)
{
	FuzzOpts o = {0};
	RunConfig own = run_config_default;     /* cfg NULL: from a */
	ExternalOpts tool;
	const char *html = a->html;     /* --html DIR: pages of the repros */

	if (a->merge)
		return merge_main(a);
	if (!cfg) {
		cli_tool_options(a, &tool);
		own.tool = &tool;
		cfg = &own;
	}
	o.strategy = a->strategy;
	o.cfg = cfg;
	o.seed = a->seed;
	o.count = (long)a->count;
	o.seconds = a->seconds;
	o.out = a->out;
	o.shard = a->shard;
	o.nshards = a->nshards;
	o.json = a->json;
	o.quiet = a->quiet || a->json;
	o.reduce = !a->no_reduce;
	o.max_failures = (long)a->max_failures;
	o.gen.max_ops = a->max_ops;
	o.gen.mix = a->mix;
	o.gen.no_copies = a->no_copies;
	/* a racy read is no finding against MLIR (docs/native.md) */
	o.gen.no_races = !a->allow_races && fuzz_races_judged(a->strategy);
	/* --target was checked: the strategy's tool gives mlir's version */
	if (fuzz_target_find(a->target, o.strategy, cfg->tool, &o.gen.target))
		return cli_usage(a, "--target names no profile");
	if (html && !o.out)
		o.out = html;   /* the repros beside their pages */
	o.progress = !o.quiet && isatty(2);
	/* a log gets a stats line now and then instead of the progress line */
	o.stats_every = a->stats_every >= 0 ? a->stats_every :
			!o.quiet && !o.progress ? 10 : 0;
	o.stats_file = o.out != NULL;
	o.first_seed = o.seed;
	if (a->resume && !o.out)
		return cli_usage(a, "--resume continues the campaign of --out "
				 "DIR (its stats file): give --out");
	if (a->resume && fuzz_resume(&o))
		return 2;
	if (!o.out) { /* repros go to files `check` reads, never to stdout */
		o.out = "bufdiff-fuzz";
		o.lazy_out = true;
	}
	return fuzz_command(&o, html);
}

int
cmd_fuzz(int argc, char **argv)
{
	Args a;
	int rc = cli_parse(argc, argv, &a);

	if (!rc)
		rc = fuzz_main(&a, NULL);
	cli_args_free(&a);
	return rc < 0 ? 0 : rc;
}
