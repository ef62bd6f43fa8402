/*
 * lab.c: `bufdiff lab cache`, the seed's cache lab (docs/lab.md).
 *
 * A fully associative LRU cache of C lines starts empty and serves the
 * address stream (i*s) mod 16, i = 0, 1, ...: N requests, then K more
 * (`--step K`), never more than LAB_MAX in all.  It prints each request
 * (hit, miss, what was evicted), the cache order from oldest to newest and
 * the hit rate, then what the toy lacks compared with buffer lifetimes.
 * `--html FILE` writes the same machine as a page with a few lines of
 * plain script (reset, C, s, step, play).
 */
#include <stdlib.h>

#include "cli.h"
#include "report.h"

enum { LAB_MAX = 4096, LAB_SPACE = 16 };

typedef struct Lab {
	int cap, stride, n, step;
	int line[LAB_MAX];      /* the cache, oldest first */
	int nline;
	int hits, requests;
} Lab;

static int
lab_addr(const Lab *L, int i)
{
	long long a = (long long)i * L->stride % LAB_SPACE;

	return (int)(a < 0 ? a + LAB_SPACE : a);
}

/* Serve request i: true on a hit; *evicted the address put out, or -1. */
static bool
lab_serve(Lab *L, int i, int *evicted)
{
	int a = lab_addr(L, i), at = -1;
	bool hit;

	*evicted = -1;
	for (int k = 0; k < L->nline && at < 0; k++)
		if (L->line[k] == a)
			at = k;
	hit = at >= 0;
	if (!hit && L->nline == L->cap) {
		*evicted = L->line[0];
		at = 0;
	} else if (!hit) {
		at = L->nline++;
	}
	memmove(L->line + at, L->line + at + 1,
		(size_t)(L->nline - at - 1) * sizeof *L->line);
	L->line[L->nline - 1] = a;      /* the newest */
	L->requests++;
	L->hits += hit;
	return hit;
}

static void
lab_order(FILE *f, const Lab *L)
{
	fputc('[', f);
	for (int k = 0; k < L->nline; k++)
		fprintf(f, k ? " %d" : "%d", L->line[k]);
	fputc(']', f);
}

static const char lacks[] =
	"what the toy lacks compared with buffer lifetimes:\n"
	"  - tensor versions: a buffer holds one version of a value after\n"
	"    another; an address here is just present or absent\n"
	"  - aliases: views and in-place results share one buffer; here every\n"
	"    address is its own line\n"
	"  - ownership: a buffer is freed by whoever owns it (the caller of a\n"
	"    returned buffer, the last user of any alias); here eviction decides\n"
	"  - asynchronous completion: a pending launch keeps its buffers live\n"
	"    until it completes; here a request is served at once\n"
	"so evicting an address is no evidence that a real buffer has no live\n"
	"readers: that takes a version shadow and the program's uses (bufdiff\n"
	"run, check).\n";

static void
lab_text(FILE *f, Lab *L, int total)
{
	fprintf(f, "lab cache: fully associative LRU, capacity %d, addresses "
		"(i*%d) mod %d, %d requests%s\n", L->cap, L->stride, LAB_SPACE,
		total, L->n + L->step > LAB_MAX ? " (capped at 4096)" : "");
	fprintf(f, "%6s %5s %6s %8s  %s\n", "#", "addr", "result", "evicted",
		"cache (oldest to newest)");
	for (int i = 0; i < total; i++) {
		int ev;
		char evs[16] = "-";
		bool hit = lab_serve(L, i, &ev);
		if (ev >= 0)
			fmt_snprintf(evs, sizeof evs, "%d", ev);
		fprintf(f, "%6d %5d %6s %8s  ", i, lab_addr(L, i),
			hit ? "hit" : "miss", evs);
		lab_order(f, L);
		fputc('\n', f);
	}
	fputs("cache order (oldest to newest): ", f);
	lab_order(f, L);
	fprintf(f, "\nhits %d of %d (%.1f%%), misses %d\n", L->hits,
		L->requests, L->requests ? 100.0 * L->hits / L->requests : 0.0,
		L->requests - L->hits);
	fputs(lacks, f);
}

/* The interactive page: the same LRU in script.  URL parameters C, s, n
 * and step override the flags' values (step: requests served after n). */
static const char lab_script[] =
	"var L={C:%d,s:%d,n:%d,step:%d},cache=[],i=0,hits=0,timer=null;\n"
	"var q=new URLSearchParams(location.search);\n"
	"['C','s','n','step'].forEach(function(k){if(q.has(k))L[k]=parseInt(q.get(k),10)||0;});\n"
	"function $(id){return document.getElementById(id);}\n"
	"function serve(){if(i>=4096)return false;var a=((i*L.s)%%16+16)%%16,k=cache.indexOf(a),ev='-';\n"
	"  if(k>=0){hits++;cache.splice(k,1);}else if(cache.length>=L.C){ev=cache.shift();}\n"
	"  cache.push(a);var r=$('trace').insertRow(-1);\n"
	"  [i,a,k>=0?'hit':'miss',ev,'['+cache.join(' ')+']'].forEach(function(t){r.insertCell(-1).textContent=t;});\n"
	"  r.className=k>=0?'ok':'bad';i++;return true;}\n"
	"function show(){$('order').textContent='['+cache.join(' ')+']';\n"
	"  $('rate').textContent='hits '+hits+' of '+i+(i?' ('+(100*hits/i).toFixed(1)+'%%)':'');}\n"
	"function reset(){L.C=Math.max(1,parseInt($('C').value,10)||1);L.s=parseInt($('s').value,10)||0;\n"
	"  cache=[];i=0;hits=0;var t=$('trace');while(t.rows.length>1)t.deleteRow(1);\n"
	"  for(var k=0;k<L.n;k++)serve();show();}\n"
	"function step(){serve();show();}\n"
	"function play(){if(timer){clearInterval(timer);timer=null;$('play').textContent='play';return;}\n"
	"  $('play').textContent='pause';timer=setInterval(function(){if(!serve()){play();}show();},300);}\n"
	"$('C').value=L.C;$('s').value=L.s;reset();for(var k=0;k<L.step;k++)serve();show();\n"
	"$('reset').onclick=reset;$('step').onclick=step;$('play').onclick=play;";

static int
lab_html(const char *path, const Lab *L)
{
	Str b = {0};
	char script[sizeof lab_script + 64];

	html_begin(&b, "bufdiff lab cache");
	str_puts(&b, "<h1>Cache lab: fully associative LRU</h1>\n<p class=\"note\">"
		 "The cache starts empty and serves the addresses (i*s) mod 16; "
		 "reset replays the first n requests with C and s, step serves "
		 "one more, play serves one every 0.3 s (at most 4096).</p>\n"
		 "<p id=\"controls\">C <input id=\"C\" type=\"number\" min=\"1\" "
		 "max=\"16\"> s <input id=\"s\" type=\"number\"> "
		 "<button id=\"reset\">reset</button> <button id=\"step\">step"
		 "</button> <button id=\"play\">play</button></p>\n"
		 "<p>cache (oldest to newest): <code id=\"order\"></code> &mdash; "
		 "<b id=\"rate\"></b></p>\n<table id=\"trace\"><tr><th>#</th>"
		 "<th>addr</th><th></th><th>evicted</th><th>cache</th></tr></table>"
		 "\n<pre class=\"note\" id=\"lacks\">");
	html_put(&b, lacks);
	str_puts(&b, "</pre>\n");
	fmt_snprintf(script, sizeof script, lab_script, L->cap, L->stride, L->n,
		 L->step);
	html_end(&b, script);
	return html_write(path, &b);
}

int
cmd_lab(const Args *a)
{
	static Lab L;

	memset(&L, 0, sizeof L);
	if (strcmp(a->paths[0], "cache"))
		return cli_usage(a, "unknown lab '%s' (there is `cache`)",
				 a->paths[0]);
	L.cap = a->lab_cap, L.stride = a->lab_stride, L.n = a->lab_requests;
	L.step = a->lab_step;
	if (a->html && lab_html(a->html, &L)) {
		fprintf(stderr, "bufdiff: cannot write %s\n", a->html);
		return STATUS_BAD;
	}
	lab_text(stdout, &L, L.n + L.step > LAB_MAX ? LAB_MAX : L.n + L.step);
	return 0;
}
