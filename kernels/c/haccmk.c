// SPDX-License-Identifier: MIT
/*
 * CORAL HACCmk: the short-range gravity kernel of HACC, in double
 * precision, with one noise site per particle-particle interaction.
 * The driver is reimplemented from the benchmark's description (see
 * ckernels.h), not copied.
 */
#include "ckernels.h"
#include "port.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Scalar loops: see ckernels.h. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

/*
 * sqrt as the one instruction it is.  Without -fno-math-errno GCC guards
 * every sqrt with a compare, a branch and a cold libm call (for errno on a
 * negative argument: s > 0 here), and that call's clobbers shape the
 * loop's register allocation and layout, differently for each noise
 * mode's clobbers.  "optimize" attributes and pragmas do not change this
 * in GCC 12, hence the instruction, each ISA's port's.
 */
static inline double hacc_sqrt(double s)
{
#if defined(__NO_MATH_ERRNO__)
	return __builtin_sqrt(s);
#else
	return mess_port_sqrt(s);	/* kernels/asm/<isa>/port.h */
#endif
}

/* The polynomial fit of the short-range force (HACC's grid correction). */
#define MA0 0.269327
#define MA1 -0.0750978
#define MA2 0.0114808
#define MA3 -0.00109313
#define MA4 0.0000605491
#define MA5 -0.00000147177

int mess_haccmk_alloc(struct mess_haccmk *h, uint32_t nmax)
{
	double **arr[] = { &h->x, &h->y, &h->z, &h->mass,
			   &h->vx, &h->vy, &h->vz };
	size_t i;

	memset(h, 0, sizeof(*h));
	if (!nmax)
		return -EINVAL;
	for (i = 0; i < sizeof(arr) / sizeof(arr[0]); i++) {
		*arr[i] = calloc(nmax, sizeof(double));
		if (!*arr[i]) {
			mess_haccmk_free(h);
			return -ENOMEM;
		}
	}
	h->nmax = nmax;
	return 0;
}

void mess_haccmk_free(struct mess_haccmk *h)
{
	free(h->x);
	free(h->y);
	free(h->z);
	free(h->mass);
	free(h->vx);
	free(h->vy);
	free(h->vz);
	memset(h, 0, sizeof(*h));
}

int mess_haccmk_setup(struct mess_haccmk *h, uint32_t n)
{
	const double dx = 1.0 / n, dy = 2.0 / n, dz = 3.0 / n;
	uint32_t i;

	if (!n || n > h->nmax)
		return -EINVAL;
	h->x[0] = h->y[0] = h->z[0] = 0.0;
	h->mass[0] = 2.0;
	/* Accumulated like the driver, so positions carry its rounding. */
	for (i = 1; i < n; i++) {
		h->x[i] = h->x[i - 1] + dx;
		h->y[i] = h->y[i - 1] + dy;
		h->z[i] = h->z[i - 1] + dz;
		h->mass[i] = 0.01 * i + h->x[i];
	}
	for (i = 0; i < n; i++)
		h->vx[i] = h->vy[i] = h->vz[i] = 0.0;
	h->count = n;
	return 0;
}

double mess_haccmk_validation(const struct mess_haccmk *h)
{
	double sum = 0.0;

	for (uint32_t i = 0; i < h->count; i++)
		sum += h->vx[i] + h->vy[i] + h->vz[i];
	return sum;
}

/*
 * mass[j] is read unconditionally so that the compiler may select rather
 * than branch; it may still branch (GCC 12 on x86_64 branches around the
 * load, the same in every mode), which stays predictable: for one target
 * the neighbours within range are one run of consecutive j.
 */
#define MESS_HACCMK_KERNEL(m)                                               \
	void mess_haccmk_##m(struct mess_haccmk *h, uint32_t lo,            \
			     uint32_t hi, struct mess_noise *nz)            \
	{                                                                   \
		const double *x = h->x, *y = h->y, *z = h->z;               \
		const double *mass = h->mass;                               \
		const uint32_t count = h->count;                            \
		struct mess_noise lnz = mess_ck_nz_enter(nz);               \
									    \
		for (uint32_t i = lo; i < hi; i++) {                        \
			const double xi = x[i], yi = y[i], zi = z[i];       \
			double fx = 0.0, fy = 0.0, fz = 0.0;                \
									    \
			for (uint32_t j = 0; j < count; j++) {              \
				double dx = x[j] - xi;                      \
				double dy = y[j] - yi;                      \
				double dz = z[j] - zi;                      \
				double r2 = dx * dx + dy * dy + dz * dz;    \
				double mj = mass[j];                        \
				double mm = r2 < MESS_HACCMK_FSRRMAX2 ?     \
						    mj : 0.0;               \
				double s = r2 + MESS_HACCMK_MP_RSM2;        \
				double f = 1.0 / (s * hacc_sqrt(s)) -       \
					   (MA0 + r2 * (MA1 + r2 * (MA2 +   \
					   r2 * (MA3 + r2 * (MA4 +          \
					   r2 * MA5)))));                   \
				f = r2 > 0.0 ? mm * f : 0.0;                \
				fx += f * dx;                               \
				fy += f * dy;                               \
				fz += f * dz;                               \
				MESS_NOISE_##m(&lnz);                       \
			}                                                   \
			h->vx[i] += fx * MESS_HACCMK_FCOEFF;                \
			h->vy[i] += fy * MESS_HACCMK_FCOEFF;                \
			h->vz[i] += fz * MESS_HACCMK_FCOEFF;                \
		}                                                           \
		mess_ck_nz_leave(nz, &lnz);                                 \
	}
MESS_CK_MODES(MESS_HACCMK_KERNEL)

mess_haccmk_fn *const mess_haccmk[MESS_NOISE_NMODES] = {
#define MESS_HACCMK_ENTRY(m) [MESS_NOISE_MODE_##m] = mess_haccmk_##m,
	MESS_CK_MODES(MESS_HACCMK_ENTRY)
#undef MESS_HACCMK_ENTRY
};

void mess_haccmk_ref(const struct mess_haccmk *h, uint32_t i, double f[3],
		     double mag[3])
{
	const double xi = h->x[i], yi = h->y[i], zi = h->z[i];
	double d[3], r2, m, t;
	int c;

	for (c = 0; c < 3; c++)
		f[c] = mag[c] = 0.0;
	for (uint32_t j = 0; j < h->count; j++) {
		d[0] = h->x[j] - xi;
		d[1] = h->y[j] - yi;
		d[2] = h->z[j] - zi;
		r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
		m = r2 < MESS_HACCMK_FSRRMAX2 ? h->mass[j] : 0.0;
		t = pow(r2 + MESS_HACCMK_MP_RSM2, -1.5) -
		    (MA0 + r2 * (MA1 + r2 * (MA2 + r2 * (MA3 +
		     r2 * (MA4 + r2 * MA5)))));
		t = r2 > 0.0 ? m * t : 0.0;
		for (c = 0; c < 3; c++) {
			f[c] += t * d[c];
			mag[c] += fabs(t * d[c]);
		}
	}
}

int mess_haccmk_driver(struct mess_haccmk *h, mess_haccmk_fn *fn,
		       struct mess_noise *nz, uint32_t targets,
		       uint32_t count_min, uint32_t step, double *final)
{
	double sum = 0.0, f[3], mag[3];
	uint32_t n, i;
	int err;

	if (!step || !count_min || targets > count_min)
		return -EINVAL;
	for (n = count_min; n < h->nmax; n += step) {
		err = mess_haccmk_setup(h, n);
		if (err)
			return err;
		if (fn) {
			fn(h, 0, targets, nz);
		} else {
			for (i = 0; i < targets; i++) {
				mess_haccmk_ref(h, i, f, mag);
				h->vx[i] += f[0] * MESS_HACCMK_FCOEFF;
				h->vy[i] += f[1] * MESS_HACCMK_FCOEFF;
				h->vz[i] += f[2] * MESS_HACCMK_FCOEFF;
			}
		}
		sum += mess_haccmk_validation(h);
	}
	*final = sum;
	return 0;
}
