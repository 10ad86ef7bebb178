package dev.cloudlock.examples;

import java.util.Locale;

/**
 * Draws a demo run as a self-contained SVG: one row per instance, one bar per execution of the job, labelled with
 * its tick and coloured by it (a failed attempt is drawn red). With the guard, bars never overlap in time and each
 * tick has one full-colour bar; without it, every instance runs every tick it receives.
 */
final class Timeline {

    private static final int ROW = 34;
    private static final int LEFT = 110;
    private static final int TOP = 50;
    private static final double PX_PER_SECOND = 60;

    private Timeline() {
    }

    static String svg(FleetDemo.Summary summary) {
        double seconds = summary.executions().stream().mapToLong(FleetDemo.Execution::endNanos).max().orElse(0) / 1e9;
        int width = LEFT + (int) Math.ceil(seconds * PX_PER_SECOND) + 40;
        int height = TOP + summary.instances() * ROW + 50;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"20\" font-size=\"14\">%s: %d ticks, %d executions,"
                + " every tick once: %s, overlaps: %d</text>%n",
                summary.guarded() ? "With the cloudlock guard" : "Without a guard", summary.ticks(),
                summary.executions().size(), summary.eachTickRanOnce() ? "yes" : "no",
                summary.violations().stream().filter(v -> v.startsWith("overlap")).count()));
        for (int i = 0; i < summary.instances(); i++) {
            int y = TOP + i * ROW;
            svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">instance-%d</text>%n", y + 20, i));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    LEFT, y + ROW - 2, width - 20, y + ROW - 2));
        }
        for (int s = 0; s <= (int) seconds; s++) {
            int x = LEFT + (int) (s * PX_PER_SECOND);
            int axis = TOP + summary.instances() * ROW;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%d\" fill=\"#666\">%ds</text>%n", x, TOP - 5, x, axis, x - 6, axis + 15, s));
        }
        for (FleetDemo.Execution e : summary.executions()) {
            int row = Integer.parseInt(e.instance().substring("instance-".length()));
            double x = LEFT + e.startNanos() / 1e9 * PX_PER_SECOND;
            double w = Math.max(2, (e.endNanos() - e.startNanos()) / 1e9 * PX_PER_SECOND);
            int y = TOP + row * ROW + 4;
            String fill = e.failed() ? "#d62728" : String.format(Locale.ROOT, "hsl(%d,65%%,55%%)", (e.tick() * 47) % 360);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"3\""
                    + " fill=\"%s\" fill-opacity=\"0.85\"><title>%s tick %d%s, fencing token %d</title></rect>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"white\">%d</text>%n", x, y, w, ROW - 10, fill, e.instance(),
                    e.tick(), e.failed() ? " (failed)" : "", e.fencingToken(), x + 3, y + 16, e.tick()));
        }
        return svg.append("</svg>\n").toString();
    }
}
