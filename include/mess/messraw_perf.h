/* SPDX-License-Identifier: MIT */
/*
 * The perf stat files of a raw Mess benchmark tree (include/mess/messraw.h)
 * read into blocks, one per repetition: the bandwidth counters of every
 * family Mess records, in bytes (messraw_perf.c has the table of events
 * and what a count of each is), and the chase's core events.
 */
#ifndef MESS_MESSRAW_PERF_H
#define MESS_MESSRAW_PERF_H

#include <stddef.h>

#define MESS_RAW_MAX_REPS 64

/* One perf stat block: what its counters said (NAN: absent or not
 * counted); rd, wr and rw in bytes. */
struct mess_raw_block {
	double rd, wr, rw, cycles, accesses, instructions, r1012, r2012, elapsed;
	int bad;		/* a counter said <not counted> / <not supported> */
	const char *family;	/* the bandwidth events' mess_dram_families[]
				 * name; NULL: none of a family Mess records */
	int combined;		/* rw: reads and writes counted together */
	int rate;		/* the counts are rates (PCM's MB/s): rd and
				 * wr are bytes a second until the block's
				 * end multiplies them by its elapsed time */
	int lines;		/* counts of cache lines (1) or of UPI data
				 * flits (2): CACHE_LINE_SIZE and
				 * UPI_SCALING_FACTOR change the bytes */
	double line_bytes;	/* CACHE_LINE_SIZE: a count of cache lines */
	double upi_flits_per_line;	/* UPI_SCALING_FACTOR: data flits a line */
	long socket;		/* the socket counted (-1: no per-socket line) */
	unsigned socket_lines_left_out;	/* lines of the other sockets */
	char other[160];	/* the events no row names, as found */
};

/*
 * Every block of the perf stat file at path into b (at most
 * MESS_RAW_MAX_REPS), how many into *n; a count of cache lines is
 * line_bytes, upi_flits_per_line UPI data flits are one.  Of --per-socket
 * lines, the first socket's only.  0, or -errno with err naming the file
 * (and the line): not perf stat output, too many blocks.
 */
int mess_raw_blocks(const char *path, double line_bytes,
		    double upi_flits_per_line, struct mess_raw_block *b,
		    size_t *n, char *err, size_t errlen);

/* "a + b; c; ...": the bandwidth events Mess records by family, into list,
 * for a message. */
const char *mess_raw_family_list(char *list, size_t len);

#endif
