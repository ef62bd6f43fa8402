/* tensor.c: runtime tensors, contiguous row-major, with poison bytes. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

Tensor *
tensor_new(DType dt, int rank, const int64_t *dims)
{
	return tensor_alloc(dt, rank, dims, true);
}

/* Payloads up to this many bytes (every scalar, the fuzzer's tensors)
 * live in the tensor's own block: one allocation a value, not two (the
 * reference makes a tensor for every value, scalars too). */
enum { TENSOR_INLINE = 256, HEAD = (sizeof(Tensor) + 15) & ~(size_t)15 };

static Tensor *
shape(Tensor *t, DType dt, int rank, const int64_t *dims, int64_t n)
{
	t->dt = dt;
	t->rank = rank;
	for (int i = 0; i < rank; i++)
		t->dims[i] = dims[i];
	t->n = n;
	return t;
}

Tensor *
tensor_alloc(DType dt, int rank, const int64_t *dims, bool zero)
{
	int64_t n = 1;
	size_t bytes;
	Tensor *t;

	for (int i = 0; i < rank; i++)
		n *= dims[i];
	bytes = (size_t)(n ? n : 1) * dtype_size(dt);
	if (bytes <= TENSOR_INLINE) {
		if (zero)
			t = mem_calloc(1, HEAD + bytes);
		else if ((t = mem_alloc(HEAD + bytes)))
			memset(t, 0, sizeof *t);
		if (!t)
			return NULL;
		t->data = (char *)t + HEAD; /* (aligned as malloc's blocks) */
		t->inline_data = true;
	} else {
		if (!(t = mem_calloc(1, sizeof *t)))
			return NULL;
		t->data = zero ? mem_calloc(bytes, 1) : mem_alloc(bytes);
		if (!t->data) {
			mem_free(t);
			return NULL;
		}
	}
	return shape(t, dt, rank, dims, n);
}

Tensor *
tensor_adopt(DType dt, int rank, const int64_t *dims, int64_t n, void *data)
{
	Tensor *t = mem_calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->data = data;
	return shape(t, dt, rank, dims, n);
}

void
tensor_free(Tensor *t)
{
	if (!t)
		return;
	if (!t->inline_data)
		mem_free(t->data);
	mem_free(t->def);
	mem_free(t);
}

Tensor *
tensor_clone(const Tensor *t)
{
	Tensor *c = tensor_new(t->dt, t->rank, t->dims);

	if (!c)
		return NULL;
	memcpy(c->data, t->data, (size_t)t->n * dtype_size(t->dt));
	if (t->def) {
		c->def = mem_alloc((size_t)(t->n ? t->n : 1));
		if (!c->def) {
			tensor_free(c);
			return NULL;
		}
		memcpy(c->def, t->def, (size_t)t->n);
	}
	return c;
}

double
tensor_getf(const Tensor *t, int64_t i)
{
	switch (t->dt) {
	case DT_F32:
		return ((float *)t->data)[i];
	case DT_F64:
		return ((double *)t->data)[i];
	default:
		return (double)tensor_geti(t, i);
	}
}

int64_t
tensor_geti(const Tensor *t, int64_t i)
{
	switch (t->dt) {
	case DT_I1:
		return ((uint8_t *)t->data)[i] & 1;
	case DT_I32:
		return ((int32_t *)t->data)[i];
	case DT_I64:
	case DT_INDEX:
		return ((int64_t *)t->data)[i];
	default:
		return (int64_t)tensor_getf(t, i);
	}
}

void
tensor_setf(Tensor *t, int64_t i, double v)
{
	switch (t->dt) {
	case DT_F32:
		((float *)t->data)[i] = (float)v;
		break;
	case DT_F64:
		((double *)t->data)[i] = v;
		break;
	default:
		/* guard the float->int conversion against UB */
		if (isnan(v))
			v = 0;
		if (v > 9.2e18)
			v = 9.2e18;
		if (v < -9.2e18)
			v = -9.2e18;
		tensor_seti(t, i, (int64_t)v);
	}
}

void
tensor_seti(Tensor *t, int64_t i, int64_t v)
{
	switch (t->dt) {
	case DT_I1:
		((uint8_t *)t->data)[i] = (uint8_t)(v & 1);
		break;
	case DT_I32:
		((int32_t *)t->data)[i] = (int32_t)(uint32_t)(uint64_t)v;
		break;
	case DT_I64:
	case DT_INDEX:
		((int64_t *)t->data)[i] = v;
		break;
	default:
		tensor_setf(t, i, (double)v);
	}
}

bool
tensor_defined(const Tensor *t, int64_t i)
{
	return !t->def || t->def[i];
}

bool
tensor_elem_equal(const Tensor *a, const Tensor *b, int64_t i)
{
	size_t sz = dtype_size(a->dt);

	if (a->dt != b->dt)
		return false;
	return !memcmp((char *)a->data + i * sz, (char *)b->data + i * sz, sz);
}

/* The shortest %g text that reads back to the same value in dtype dt. */
static int
shortest_float(DType dt, double v, char *buf, size_t n)
{
	int lo = dt == DT_F32 ? 6 : 15, hi = dt == DT_F32 ? 9 : 17, len = 0;

	if (isnan(v))
		return fmt_snprintf(buf, n, "nan");
	if (isinf(v))
		return fmt_snprintf(buf, n, v < 0 ? "-inf" : "inf");
	for (int prec = lo; prec <= hi; prec++) {
		len = fmt_snprintf(buf, n, "%.*g", prec, v);
		if (dt == DT_F32 ? strtof(buf, NULL) == (float)v
				 : strtod(buf, NULL) == v)
			break;
	}
	return len;
}

bool
tensor_elem_same(const Tensor *a, const Tensor *b, int64_t i)
{
	if (a->dt != b->dt)
		return false;
	/* IEEE 754 leaves the payload (and sign) of a NaN made from two NaNs
	 * open, and compilers swap commutative operands: any NaN is any NaN */
	if (dtype_is_float(a->dt) && isnan(tensor_getf(a, i)) &&
	    isnan(tensor_getf(b, i)))
		return true;
	return tensor_elem_equal(a, b, i);
}

int
tensor_elem_str(const Tensor *t, int64_t i, char *buf, size_t n)
{
	if (!tensor_defined(t, i))
		return fmt_snprintf(buf, n, "undef");
	switch (t->dt) {
	case DT_F32:
	case DT_F64:
		return shortest_float(t->dt, tensor_getf(t, i), buf, n);
	default:
		return fmt_snprintf(buf, n, "%lld", (long long)tensor_geti(t, i));
	}
}

/* ------------------------------------------------- expected outputs
 *
 * Outputs compare exactly per dtype: expected numbers were converted to
 * the dtype when loaded, then elements compare bit for bit (any NaN equals
 * any NaN).  An element the reference leaves undefined is never compared,
 * but an expected `undef` must be undefined in the reference.
 */

/* "[1, 2]": the multi-index of flat element i. */
static char *
index_str(const Tensor *t, int64_t i, char *buf, size_t n)
{
	int64_t idx[MAXRANK] = {0};
	size_t len = 0;

	for (int k = t->rank - 1; k >= 0; k--) {
		idx[k] = t->dims[k] ? i % t->dims[k] : 0;
		i = t->dims[k] ? i / t->dims[k] : 0;
	}
	len += (size_t)fmt_snprintf(buf, n, "[");
	for (int k = 0; k < t->rank && len < n; k++)
		len += (size_t)fmt_snprintf(buf + len, n - len, k ? ", %" PRId64 : "%" PRId64,
					idx[k]);
	if (len < n)
		fmt_snprintf(buf + len, n - len, "]");
	return buf;
}

static char *
shape_str(const Tensor *t, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	if (!t->rank)
		fmt_snprintf(buf, n, "()");
	for (int k = 0; k < t->rank && len < n; k++)
		len += (size_t)fmt_snprintf(buf + len, n - len, k ? "x%" PRId64 : "%" PRId64,
					t->dims[k]);
	return buf;
}

/* Output k: 0, or -1 with the first difference in why. */
static int
check_one(int k, const Tensor *want, const Tensor *got, const char *what,
	  char *why, size_t n)
{
	char b1[128], b2[128], ix[128];

	if (want->rank != got->rank || want->dt != got->dt ||
	    memcmp(want->dims, got->dims, sizeof(int64_t) * (size_t)want->rank)) {
		fmt_snprintf(why, n, "output %d: %s has shape %s (%s), expected "
			 "%s (%s)", k, what, shape_str(got, b1, sizeof b1),
			 dtype_names[got->dt], shape_str(want, b2, sizeof b2),
			 dtype_names[want->dt]);
		return -1;
	}
	for (int64_t i = 0; i < want->n; i++) {
		bool wdef = tensor_defined(want, i), gdef = tensor_defined(got, i);

		if (!gdef && !wdef)
			continue;
		if (gdef && wdef && tensor_elem_same(want, got, i))
			continue;
		tensor_elem_str(got, i, b1, sizeof b1);
		tensor_elem_str(want, i, b2, sizeof b2);
		fmt_snprintf(why, n, "output %d differs at %s: %s %s, expected %s",
			 k, index_str(want, i, ix, sizeof ix), what, b1, b2);
		return -1;
	}
	return 0;
}

int
check_outputs(Tensor *const *want, int nwant, Tensor *const *got, int ngot,
	      const char *what, char *why, size_t n)
{
	if (nwant != ngot) {
		fmt_snprintf(why, n, "the %s run returned %d output%s, expected %d",
			 what, ngot, ngot == 1 ? "" : "s", nwant);
		return -1;
	}
	for (int k = 0; k < nwant; k++)
		if (check_one(k, want[k], got[k], what, why, n))
			return -1;
	return 0;
}
