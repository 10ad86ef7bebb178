package dev.cloudlock.examples;

import java.util.Locale;

/**
 * Draws a demo run as a self-contained SVG: one row per instance, one bar per execution of the job, labelled with
 * its tick's number and coloured by it; a failed run is red, a run started by a retry delivery has a dashed outline,
 * and a delivery the guard skipped or sent back for a retry is a mark in its instance's row (a triangle: the tick was
 * busy, its lock held; a circle: it was done). With the guard, bars never overlap in time and each tick has one
 * full-colour bar; without it, every instance runs every tick it receives. A legend under the rows says all of this.
 */
final class Timeline {

    private static final int ROW = 34;
    private static final int LEFT = 110;
    private static final int TOP = 50;
    private static final int LEGEND = 70;
    private static final double PX_PER_SECOND = 60;
    private static final String BUSY = "#ff7f0e";
    private static final String DONE = "#7f7f7f";
    private static final String FAILED = "#d62728";

    private Timeline() {}

    static String svg(FleetDemo.Summary summary) {
        double seconds = summary.executions().stream()
                        .mapToLong(FleetDemo.Execution::endNanos)
                        .max()
                        .orElse(0)
                / 1e9;
        int width = Math.max(LEFT + (int) Math.ceil(seconds * PX_PER_SECOND) + 40, 760);
        int axis = TOP + summary.instances() * ROW;
        int height = axis + 30 + LEGEND;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                        + " font-family=\"sans-serif\" font-size=\"11\">%n",
                width,
                height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"10\" y=\"20\" font-size=\"14\">%s: %d ticks, %d executions,"
                        + " %d skipped deliveries, every tick once: %s, overlaps: %d%s</text>%n",
                summary.guarded() ? "With the cloudlock guard" : "Without a guard",
                summary.ticks(),
                summary.executions().size(),
                summary.skips().size(),
                summary.eachTickRanOnce() ? "yes" : "no",
                summary.violations().stream()
                        .filter(v -> v.startsWith("overlap"))
                        .count(),
                summary.refusedLateWrites().isEmpty()
                        ? ""
                        : ", late writes refused: "
                                + summary.refusedLateWrites().size()));
        for (int i = 0; i < summary.instances(); i++) {
            int y = TOP + i * ROW;
            svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">instance-%d</text>%n", y + 20, i));
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    LEFT,
                    y + ROW - 2,
                    width - 20,
                    y + ROW - 2));
        }
        for (int s = 0; s <= (int) seconds; s++) {
            int x = LEFT + (int) (s * PX_PER_SECOND);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>"
                            + "<text x=\"%d\" y=\"%d\" fill=\"#666\">%ds</text>%n",
                    x,
                    TOP - 5,
                    x,
                    axis,
                    x - 6,
                    axis + 15,
                    s));
        }
        for (FleetDemo.Execution e : summary.executions()) {
            double x = LEFT + e.startNanos() / 1e9 * PX_PER_SECOND;
            double w = Math.max(2, (e.endNanos() - e.startNanos()) / 1e9 * PX_PER_SECOND);
            int y = TOP + row(e.instance()) * ROW + 4;
            String fill = e.failed() ? FAILED : tickColour(e.tickNumber());
            String outline = e.attempt() > 0 ? " stroke=\"black\" stroke-dasharray=\"3,2\"" : "";
            svg.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"3\""
                            + " fill=\"%s\" fill-opacity=\"0.85\"%s>"
                            + "<title>%s tick %d%s%s, fencing token %d</title></rect>"
                            + "<text x=\"%.1f\" y=\"%d\" fill=\"white\">%d</text>%n",
                    x,
                    y,
                    w,
                    ROW - 10,
                    fill,
                    outline,
                    e.instance(),
                    e.tickNumber(),
                    e.failed() ? " (failed)" : "",
                    e.attempt() > 0 ? " (a retry)" : "",
                    e.fencingToken(),
                    x + 3,
                    y + 16,
                    e.tickNumber()));
        }
        for (FleetDemo.Execution late : summary.refusedLateWrites()) {
            double x = LEFT + late.endNanos() / 1e9 * PX_PER_SECOND;
            double leaseEnd = LEFT + late.holdingEndNanos() / 1e9 * PX_PER_SECOND;
            int y = TOP + row(late.instance()) * ROW + 4;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" font-weight=\"bold\">&#x2717;"
                            + "<title>%s tick %d: late write refused (fencing token %d, the report holds %d); its"
                            + " lease ended at the black line</title></text>%n",
                    leaseEnd,
                    y - 2,
                    leaseEnd,
                    y + ROW - 8,
                    x - 4,
                    y + 16,
                    late.instance(),
                    late.tickNumber(),
                    late.fencingToken(),
                    late.refusedBy()));
        }
        for (FleetDemo.Skip skip : summary.skips()) {
            double x = LEFT + skip.atNanos() / 1e9 * PX_PER_SECOND;
            int y = TOP + row(skip.instance()) * ROW + ROW - 8;
            svg.append(mark(
                    skip.outcome() != FleetDemo.DeliveryOutcome.DONE,
                    x,
                    y,
                    skip.instance() + " tick " + skip.tickNumber() + ": " + skip.outcome()));
        }
        legend(svg, axis + 35);
        return svg.append("</svg>\n").toString();
    }

    private static void legend(StringBuilder svg, int y) {
        int x = LEFT;
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"14\" rx=\"3\""
                        + " fill=\"%s\"/><text x=\"%d\" y=\"%d\">a run of the job (colour and number: its"
                        + " tick's number)</text>%n",
                x,
                y,
                tickColour(4),
                x + 30,
                y + 11));
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"14\" rx=\"3\""
                        + " fill=\"%s\"/><text x=\"%d\" y=\"%d\">a failed run: the tick stays open and is"
                        + " retried</text>%n",
                x + 320,
                y,
                FAILED,
                x + 350,
                y + 11));
        svg.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"14\" rx=\"3\""
                        + " fill=\"%s\" stroke=\"black\" stroke-dasharray=\"3,2\"/><text x=\"%d\" y=\"%d\">"
                        + "a run started by a retry delivery</text>%n",
                x,
                y + 24,
                tickColour(9),
                x + 30,
                y + 35));
        svg.append(mark(true, x + 332, y + 34, "skipped"));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\">a delivery skipped or sent back: the tick was busy (its lock held)</text>%n",
                x + 350,
                y + 35));
        svg.append(mark(false, x + 12, y + 58, "skipped"));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\">a delivery skipped: the tick (or a newer one)" + " was done</text>%n",
                x + 30,
                y + 59));
    }

    /** A skipped delivery's mark: an orange triangle when the tick was busy, a grey circle when it was done. */
    private static String mark(boolean busy, double x, int y, String title) {
        return busy
                ? String.format(
                        Locale.ROOT,
                        "<polygon points=\"%.1f,%d %.1f,%d %.1f,%d\" fill=\"%s\"><title>%s</title>" + "</polygon>%n",
                        x - 5,
                        y + 4,
                        x + 5,
                        y + 4,
                        x,
                        y - 5,
                        BUSY,
                        title)
                : String.format(
                        Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%d\" r=\"4.5\" fill=\"%s\"><title>%s</title>" + "</circle>%n",
                        x,
                        y,
                        DONE,
                        title);
    }

    private static String tickColour(int tickNumber) {
        return String.format(Locale.ROOT, "hsl(%d,65%%,55%%)", (tickNumber * 47) % 360);
    }

    private static int row(String instance) {
        return Integer.parseInt(instance.substring("instance-".length()));
    }
}
