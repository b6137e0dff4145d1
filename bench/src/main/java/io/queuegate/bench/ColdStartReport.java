package io.queuegate.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The burst that meets a fresh start ({@code bench/cold-start.sh}, {@code ./bench.sh --only=cold}): from the JSON of
 * its runs, the curve of each beside the two yardsticks started cold, as a PNG, and the figures as Markdown.
 *
 * <p>Each run is measured against its own warm rate, the median of its windows from {@value #WARM_FROM_SECONDS} s
 * after it answered on: the stack's warm rate moves with the machine from run to run, and the issue's targets are
 * shares of it (the first 10 s at least {@value #TARGET_FIRST_10} of it, the first 30 s at least
 * {@value #TARGET_FIRST_30}).
 */
final class ColdStartReport {

    static final int WARM_FROM_SECONDS = 60;

    static final double TARGET_FIRST_10 = 0.5;

    static final double TARGET_FIRST_30 = 0.8;

    static final String QUEUEGATE = "queuegate";

    private static final Map<String, Color> COLORS = Map.of(QUEUEGATE, new Color(0x1f77b4), "plain-noop",
            new Color(0x17becf), "seed-design", new Color(0xbcbd22));

    private ColdStartReport() {
    }

    /**
     * The runs as {@code bench/cold-start.sh} writes them.
     *
     * @param windowSeconds each window's length
     * @param runs one entry per run, each series named by what ran ({@code queuegate}, {@code plain-noop},
     *        {@code seed-design})
     */
    record Runs(int windowSeconds, List<Map<String, Series>> runs) {
    }

    /**
     * @param startSeconds from the start command to the first answer (for Queuegate: to {@code ./run.sh --detach}
     *        returning)
     * @param perSecond each window's 2xx answers per second
     */
    record Series(double startSeconds, List<Long> perSecond) {
    }

    /** One run of Queuegate against its own warm rate. */
    record Shares(double startSeconds, double first10, double first30, double warm) {

        double first10Share() {
            return this.first10 / this.warm;
        }

        double first30Share() {
            return this.first30 / this.warm;
        }
    }

    /** Writes {@code <json>.png} and {@code <json>.md} beside the JSON; returns the Markdown. */
    static String write(Path json) throws Exception {
        Runs runs = BenchRun.JSON.readValue(json.toFile(), Runs.class);
        String base = json.getFileName().toString().replaceFirst("\\.json$", "");
        Path png = json.resolveSibling(base + ".png");
        ChartUtils.saveChartAsPNG(png.toFile(), chart(runs), 1400, 700);
        String markdown = markdown(runs, png.getFileName().toString());
        Files.writeString(json.resolveSibling(base + ".md"), markdown);
        return markdown;
    }

    static Shares shares(Series queuegate, int windowSeconds) {
        List<Long> windows = queuegate.perSecond();
        int warmFrom = Math.min(WARM_FROM_SECONDS / windowSeconds, windows.size() - 1);
        long[] warm = windows.subList(warmFrom, windows.size()).stream().mapToLong(Long::longValue).sorted().toArray();
        double median = warm.length % 2 == 1 ? warm[warm.length / 2]
                : (warm[warm.length / 2 - 1] + warm[warm.length / 2]) / 2.0;
        return new Shares(queuegate.startSeconds(), mean(windows, 10 / windowSeconds),
                mean(windows, 30 / windowSeconds), median);
    }

    private static double mean(List<Long> windows, int count) {
        return windows.stream().limit(Math.max(1, count)).mapToLong(Long::longValue).average().orElse(0);
    }

    static String markdown(Runs runs, String chart) {
        StringBuilder md = new StringBuilder();
        md.append("| run | start-up | first 10 s, enters/s | first 30 s | warm (median from ").append(WARM_FROM_SECONDS)
            .append(" s on) | first 10 s ÷ warm (target ").append(percent(TARGET_FIRST_10))
            .append(") | first 30 s ÷ warm (target ").append(percent(TARGET_FIRST_30)).append(") |\n")
            .append("|---|---|---|---|---|---|---|\n");
        List<Shares> all = new ArrayList<>();
        for (int r = 0; r < runs.runs().size(); r++) {
            Series queuegate = runs.runs().get(r).get(QUEUEGATE);
            if (queuegate == null || queuegate.perSecond().isEmpty()) {
                continue;
            }
            Shares shares = shares(queuegate, runs.windowSeconds());
            all.add(shares);
            md.append(String.format(Locale.ROOT, "| %d | %.0f s | %s | %s | %s | %s | %s |%n", r + 1,
                    shares.startSeconds(), count(shares.first10()), count(shares.first30()), count(shares.warm()),
                    percent(shares.first10Share()), percent(shares.first30Share())));
        }
        if (!all.isEmpty()) {
            md.append(String.format(Locale.ROOT, "| **low – median – high** | | | | | **%s** | **%s** |%n",
                    spread(all.stream().mapToDouble(Shares::first10Share).toArray()),
                    spread(all.stream().mapToDouble(Shares::first30Share).toArray())));
        }
        md.append("\nEach window's answers per second, from the moment each answered:\n\n");
        int windows = runs.runs().stream().flatMap((run) -> run.values().stream())
            .mapToInt((series) -> series.perSecond().size()).max().orElse(0);
        md.append("| run | what | start-up |");
        for (int w = 0; w < windows; w++) {
            md.append(' ').append(w * runs.windowSeconds()).append('–').append((w + 1) * runs.windowSeconds())
                .append(" |");
        }
        md.append("\n|---|---|---|").append("---|".repeat(windows)).append('\n');
        for (int r = 0; r < runs.runs().size(); r++) {
            for (Map.Entry<String, Series> series : runs.runs().get(r).entrySet()) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %.1f s |", r + 1, series.getKey(),
                        series.getValue().startSeconds()));
                series.getValue().perSecond().forEach((value) -> md.append(' ').append(count(value)).append(" |"));
                md.append('\n');
            }
        }
        md.append("\n![The first seconds after a cold start](").append(chart).append(")\n");
        return md.toString();
    }

    private static JFreeChart chart(Runs runs) {
        XYSeriesCollection lines = new XYSeriesCollection();
        List<Color> colors = new ArrayList<>();
        List<Boolean> dashed = new ArrayList<>();
        double warm = 0;
        int counted = 0;
        for (int r = 0; r < runs.runs().size(); r++) {
            for (Map.Entry<String, Series> each : runs.runs().get(r).entrySet()) {
                XYSeries line = new XYSeries(each.getKey() + " #" + (r + 1));
                List<Long> windows = each.getValue().perSecond();
                for (int w = 0; w < windows.size(); w++) {
                    line.add((w + 0.5) * runs.windowSeconds(), windows.get(w));
                }
                lines.addSeries(line);
                colors.add(COLORS.getOrDefault(each.getKey(), Color.GRAY));
                dashed.add(!QUEUEGATE.equals(each.getKey()));
                if (QUEUEGATE.equals(each.getKey()) && !windows.isEmpty()) {
                    warm += shares(each.getValue(), runs.windowSeconds()).warm();
                    counted++;
                }
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                "A burst right after a cold start: answers per second in each " + runs.windowSeconds()
                        + " s window after it answered (Queuegate: durable enters; dashed: the yardsticks started cold)",
                null, null, lines, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = Chart.styled(chart).getXYPlot();
        XYItemRenderer renderer = plot.getRenderer();
        for (int s = 0; s < colors.size(); s++) {
            renderer.setSeriesPaint(s, colors.get(s));
            renderer.setSeriesStroke(s, dashed.get(s)
                    ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, new float[] {6, 4}, 0)
                    : new BasicStroke(2.5f));
        }
        if (counted > 0) {
            double meanWarm = warm / counted;
            plot.addRangeMarker(marker(meanWarm * TARGET_FIRST_10, "the first 10 s' target: "
                    + percent(TARGET_FIRST_10) + " of Queuegate's warm rate"));
            plot.addRangeMarker(marker(meanWarm * TARGET_FIRST_30, "the first 30 s' target: "
                    + percent(TARGET_FIRST_30) + " of it"));
        }
        NumberAxis seconds = (NumberAxis) plot.getDomainAxis();
        seconds.setNumberFormatOverride(new DecimalFormat("0' s'"));
        NumberAxis perSecond = (NumberAxis) plot.getRangeAxis();
        perSecond.setNumberFormatOverride(new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        return chart;
    }

    private static ValueMarker marker(double value, String label) {
        ValueMarker marker = new ValueMarker(value, Color.GRAY, new BasicStroke(1f));
        marker.setLabel(label);
        marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        marker.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        return marker;
    }

    private static String spread(double[] shares) {
        double[] sorted = Arrays.stream(shares).sorted().toArray();
        return percent(sorted[0]) + " – " + percent(sorted[sorted.length / 2]) + " – " + percent(sorted[sorted.length - 1]);
    }

    /** One decimal: a share of 79.8 % is not the 80 % a target asks for. */
    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
