/*
 * lib_path.c: where bufdiff's own helper files are (the in-process
 * worker and its module, the unwinder preloaded into LLVM tools): the
 * build tree's, else the installed one beside bufdiff.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "mlir.h"

const char *
lib_path(const char *built, const char *installed, int mode, char *path,
	 size_t n)
{
	char exe[PATH_MAX], *slash;
	ssize_t k;

	if (!*built)
		return NULL; /* not built here */
	if (!access(built, mode))
		return built;
	if ((k = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[k] = 0;
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = 0;
	fmt_snprintf(path, n, "%s/../%s", exe, installed);
	return access(path, mode) ? NULL : path;
}
