/* SPDX-License-Identifier: MIT */
#ifndef MESS_REPORT_SUMMARY_H
#define MESS_REPORT_SUMMARY_H

#include <jansson.h>

/*
 * dir's summary.md curve section and summary.json's figures summarised
 * again from its curves against peak (GB/s, > 0), the rest of both files
 * as the run wrote them; a run without that section (absorb, ladder) is
 * left alone.  meta: the run's meta.json (its generator count).  0 or
 * -errno, said on stderr.
 */
int mess_report_peak_summary(const char *dir, const json_t *meta, double peak);

#endif
