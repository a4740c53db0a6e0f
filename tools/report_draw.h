/* The drawings of `clhls report` (tools/report_draw.c), inline SVG read from a kernel's
 * entry of report.json: the region graph, the CFG and bar charts; and the program's
 * channels between its kernels. */
#ifndef CLHLS_TOOLS_REPORT_DRAW_H
#define CLHLS_TOOLS_REPORT_DRAW_H

#include <cjson/cJSON.h>

#include "html.h"

/* Arrow heads the graphs share: once per page, at the top of its body. */
void draw_svg_defs(html_page *p);
/* The region tree laid out in layers: dispatch, the regions, retirement. */
void draw_region_graph(html_page *p, const cJSON *kernel);
/* The CFG's blocks in layers (the longest forward path from the entry), back edges
 * round the side. */
void draw_cfg(html_page *p, const cJSON *kernel);

/* The kernels of the program (metadata.json's "kernels") that channels or pipes join
 * (its "channels"), in columns by the longest chain of channels that leads to each
 * (channels to a kernel earlier in the program go round below), every channel an arrow
 * from its writer to its reader labelled with its name, depth and element bits, and
 * with peaks[i] (when not negative) the most entries channel i held in the last run. */
void draw_channels(html_page *p, const cJSON *channels, const cJSON *kernels, const int *peaks);

/* One bar of a chart: a label, segments (value and CSS class) and the scale's end. */
typedef struct draw_bar {
    char label[64];             /* left of the bar */
    double value[8];            /* segment lengths, in the chart's unit */
    const char *cls[8];         /* their CSS classes */
    int nseg;                   /* segments */
    double scale;               /* the value the full bar width stands for */
    char note[96];              /* right of the bar */
} draw_bar;

/* A chart of n bars, of class "bar-chart cls". */
void draw_bar_chart(html_page *p, const char *cls, const draw_bar *bars, int n);

#endif
