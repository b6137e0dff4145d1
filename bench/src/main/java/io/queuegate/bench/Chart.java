package io.queuegate.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

import javax.imageio.ImageIO;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.CategoryTextAnnotation;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LevelRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The run on one PNG: each figure as a ratio to its same-run yardstick with the target marked, where the CPU went in
 * each phase, and the end-to-end sale second by second. Three JFreeChart charts drawn headless onto one image.
 */
final class Chart {

    private static final int WIDTH = 1400;

    private static final int HEIGHT = 1050;

    private static final Map<String, Color> PROCESS_COLORS = new LinkedHashMap<>();

    static {
        PROCESS_COLORS.put("ingest", new Color(0x1f77b4));
        PROCESS_COLORS.put("worker", new Color(0xff7f0e));
        PROCESS_COLORS.put("booking", new Color(0x2ca02c));
        PROCESS_COLORS.put("kafka", new Color(0x9467bd));
        PROCESS_COLORS.put("redis", new Color(0xd62728));
        PROCESS_COLORS.put(Yardsticks.App.PLAIN_NOOP.process, new Color(0x17becf));
        PROCESS_COLORS.put(Yardsticks.App.SEED_DESIGN.process, new Color(0xbcbd22));
        PROCESS_COLORS.put("bench", new Color(0x8c564b));
        PROCESS_COLORS.put("other", new Color(0x7f7f7f));
        PROCESS_COLORS.put("idle", new Color(0xdddddd));
    }

    private static final Color WITHIN_TARGET = new Color(0x7fb3d5);

    private static final Color MISSES_TARGET = new Color(0xe6a0a0);

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);

    private static final Font TEXT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);

    private Chart() {
    }

    static void write(BenchRun r, Path file) throws Exception {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
        g.drawString(String.format("Queuegate burst benchmark — %s × %s, %s",
                r.machine() == null ? null : r.machine().cpus(), r.machine() == null ? null : r.machine().cpuModel(),
                r.startedAt()), 30, 32);
        ratios(r).draw(g, new Rectangle(20, 50, 680, 470));
        cpu(r).draw(g, new Rectangle(710, 50, 680, 470));
        timeline(r).draw(g, new Rectangle(20, 540, 1360, 490));
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static JFreeChart ratios(BenchRun r) {
        RateFigure ingest = r.ingestFigure();
        RateFigure status = r.statusFigure();
        List<Bar> bars = new ArrayList<>();
        bars.add(new Bar("1a enters ÷ plain no-op POST", rateRatio(ingest, RateFigure.PLAIN_NOOP),
                Targets.ENTERS_TO_PLAIN_NOOP));
        bars.add(new Bar("1b enters ÷ seed design", rateRatio(ingest, RateFigure.SEED), Targets.ENTERS_TO_SEED));
        bars.add(new Bar("1c ingest CPU ÷ no-op app's", ingest == null ? null : ingest.ingestCpuToPlainNoop(),
                Targets.INGEST_CPU_TO_PLAIN_NOOP));
        bars.add(new Bar("2a drain from the log ÷ ZADD", r.drain() == null ? null : r.drain().backlogRatio(),
                Targets.DRAIN_TO_ZADD));
        bars.add(new Bar("2b produced and drained ÷ ZADD", r.drain() == null ? null : r.drain().ratio(), null));
        bars.add(new Bar("3a polls ÷ plain no-op GET", rateRatio(status, RateFigure.PLAIN_NOOP),
                Targets.POLLS_TO_PLAIN_NOOP));
        bars.add(new Bar("3b polls ÷ seed design", rateRatio(status, RateFigure.SEED), null));
        bars.add(new Bar("3c ingest CPU ÷ no-op app's", status == null ? null : status.ingestCpuToPlainNoop(),
                Targets.INGEST_CPU_TO_PLAIN_NOOP));
        bars.add(new Bar("4 admission: bare script ÷ tick", r.admission() == null ? null : r.admission().ratio(), null));
        bars.add(new Bar("5 booking ÷ no-op POST", r.booking() == null ? null : r.booking().ratio(), null));
        bars.add(new Bar("6 sell-out: ideal ÷ actual", r.e2e() == null ? null : r.e2e().sellOutRatio(), null));
        bars.add(new Bar("6 admitted/s ÷ setting", r.e2e() == null ? null : r.e2e().admissionAccuracy(), null));
        Object memory = r.memory() == null ? null : r.memory().ratio();
        bars.add(new Bar("7 bare ZSet ÷ bytes per user", memory instanceof Number m ? 1 / m.doubleValue() : null, null));

        DefaultCategoryDataset measured = new DefaultCategoryDataset();
        DefaultCategoryDataset targets = new DefaultCategoryDataset();
        // ratios far above 1 would squeeze the rest: the axis stops at 3
        double max = 1.2;
        for (Bar bar : bars) {
            measured.addValue(bar.value(), "measured", bar.label());
            targets.addValue(bar.target() == null ? null : bar.target().bound(), "target", bar.label());
            if (bar.value() != null) {
                max = Math.max(max, Math.min(3, bar.value() * 1.1));
            }
            if (bar.target() != null) {
                max = Math.max(max, Math.min(3, bar.target().bound() * 1.1));
            }
        }
        JFreeChart chart = ChartFactory.createBarChart("Measured ÷ yardstick of the same run (target marked red)", null,
                null, measured, PlotOrientation.HORIZONTAL, false, false, false);
        CategoryPlot plot = styled(chart).getCategoryPlot();
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.45f);
        // room after the longest bar for its value
        ((NumberAxis) plot.getRangeAxis()).setRange(0, max * 1.08);

        BarRenderer renderer = new BarRenderer() {
            @Override
            public Paint getItemPaint(int row, int column) {
                return bars.get(column).missesTarget() ? MISSES_TARGET : WITHIN_TARGET;
            }
        };
        flat(renderer);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}",
                new DecimalFormat("0.00", DecimalFormatSymbols.getInstance(Locale.ROOT))));
        renderer.setDefaultItemLabelFont(TEXT);
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3,
                TextAnchor.CENTER_LEFT));
        plot.setRenderer(renderer);

        LevelRenderer targetMarks = new LevelRenderer();
        targetMarks.setSeriesPaint(0, Color.RED);
        targetMarks.setSeriesStroke(0, new BasicStroke(3));
        targetMarks.setItemMargin(0);
        targetMarks.setMaximumItemWidth(0.9);
        plot.setDataset(1, targets);
        plot.setRenderer(1, targetMarks);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);

        plot.addRangeMarker(new ValueMarker(1, Color.DARK_GRAY, new BasicStroke(1, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1, new float[] {4, 4}, 0)), Layer.FOREGROUND);
        for (Bar bar : bars) {
            if (bar.value() == null) {
                CategoryTextAnnotation note = new CategoryTextAnnotation("not measured", bar.label(), 0.02 * max);
                note.setFont(TEXT);
                note.setPaint(Color.GRAY);
                note.setTextAnchor(TextAnchor.CENTER_LEFT);
                plot.addAnnotation(note);
            }
        }
        return chart;
    }

    /** One bar of the ratio chart: null value when the figure was not measured, null target when it has none. */
    private record Bar(String label, Object measured, Target target) {

        Double value() {
            return this.measured instanceof Number n ? n.doubleValue() : null;
        }

        boolean missesTarget() {
            return this.target != null && Boolean.FALSE.equals(this.target.holds(value()));
        }
    }

    static List<Object[]> cpuPhases(BenchRun r) {
        List<Object[]> phases = new ArrayList<>();
        add(phases, "drain: produce → all in line", Report.at(r.drain() == null ? null : r.drain().cpu(), "cores"));
        add(phases, "drain: backlog, release → all in line", Report.at(
                r.drain() == null || r.drain().backlog() == null ? null : r.drain().backlog().cpu(), "cores"));
        for (RateFigure figure : Arrays.asList(r.statusFigure(), r.ingestFigure())) {
            if (figure != null) {
                for (String key : figure.measured()) {
                    add(phases, figure.label(key), Report.at(figure.endpoint(key), "cores"));
                }
            }
        }
        BookingFigure booking = r.booking();
        add(phases, "no-op POST, Java client", booking == null ? null : Report.at(booking.yardstick(), "cpu", "cores"));
        add(phases, "booking POST, Java client", booking == null ? null : Report.at(booking.cpu(), "cores"));
        add(phases, "end to end sale", r.e2e() == null ? null : Report.at(r.e2e().cpu(), "cores"));
        return phases;
    }

    private static Double rateRatio(RateFigure figure, String yardstick) {
        return figure == null ? null : figure.rateRatio(RateFigure.QUEUEGATE, yardstick);
    }

    private static void add(List<Object[]> phases, String label, Object cores) {
        if (cores instanceof Map<?, ?> m) {
            phases.add(new Object[] {label, m});
        }
    }

    private static JFreeChart cpu(BenchRun r) {
        DefaultCategoryDataset used = new DefaultCategoryDataset();
        for (Object[] phase : cpuPhases(r)) {
            Map<?, ?> cores = (Map<?, ?>) phase[1];
            for (String process : PROCESS_COLORS.keySet()) {
                // every process is a series of every phase, so that the legend lists them all in one order
                used.addValue(cores.get(process) instanceof Number n ? n : null, process, (String) phase[0]);
            }
        }
        JFreeChart chart = ChartFactory.createStackedBarChart("Cores in use per phase, by process", null, "cores",
                used, PlotOrientation.HORIZONTAL, true, false, false);
        CategoryPlot plot = styled(chart).getCategoryPlot();
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.4f);
        plot.setNoDataMessage("not measured");
        NumberAxis axis = (NumberAxis) plot.getRangeAxis();
        axis.setRange(0, Math.max(1, r.machine() == null || r.machine().cpus() == null ? 1 : r.machine().cpus()));
        axis.setTickUnit(new NumberTickUnit(1));
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        flat(renderer);
        int series = 0;
        for (Color color : PROCESS_COLORS.values()) {
            renderer.setSeriesPaint(series++, color);
        }
        return chart;
    }

    private static JFreeChart timeline(BenchRun r) {
        EndToEndFigure e2e = r.e2e() != null ? r.e2e() : Figures.typed(Map.of(), EndToEndFigure.class);
        Map<String, ToLongFunction<EndToEndFigure.Second>> values = new LinkedHashMap<>();
        values.put("enters/s", EndToEndFigure.Second::enters);
        values.put("polls/s", EndToEndFigure.Second::polls);
        values.put("admitted/s", EndToEndFigure.Second::admitted);
        values.put("bookings/s", EndToEndFigure.Second::bookings);
        Color[] colors = {new Color(0x1f77b4), new Color(0x7f7f7f), new Color(0xff7f0e), new Color(0x2ca02c)};
        XYSeriesCollection perSecond = new XYSeriesCollection();
        List<EndToEndFigure.Second> rows = e2e.timeline() == null ? List.of() : e2e.timeline();
        if (!rows.isEmpty()) {
            values.forEach((name, value) -> {
                XYSeries series = new XYSeries(name);
                for (int second = 0; second < rows.size(); second++) {
                    series.add(second, value.applyAsLong(rows.get(second)));
                }
                perSecond.addSeries(series);
            });
        }
        JFreeChart chart = ChartFactory.createXYLineChart(String.format(
                "End to end, per second: %s users entering over %s s, admitPerSecond %s, stock %s", e2e.users(),
                e2e.windowSeconds(), e2e.admitPerSecondSetting(), e2e.stock()), null, null, perSecond,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = styled(chart).getXYPlot();
        plot.setNoDataMessage("not measured");
        NumberAxis seconds = (NumberAxis) plot.getDomainAxis();
        seconds.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        seconds.setNumberFormatOverride(new DecimalFormat("0' s'"));
        NumberAxis perSecondAxis = (NumberAxis) plot.getRangeAxis();
        perSecondAxis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        perSecondAxis.setNumberFormatOverride(new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        XYItemRenderer renderer = plot.getRenderer();
        for (int s = 0; s < colors.length; s++) {
            renderer.setSeriesPaint(s, colors[s]);
            renderer.setSeriesStroke(s, new BasicStroke(2.5f));
        }
        return chart;
    }

    /** The house look: left-aligned bold title, white plot, light grid, the report's fonts. */
    static JFreeChart styled(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(TITLE);
        chart.getTitle().setHorizontalAlignment(HorizontalAlignment.LEFT);
        if (chart.getLegend() != null) {
            chart.getLegend().setItemFont(TEXT);
            chart.getLegend().setFrame(BlockBorder.NONE);
        }
        chart.getPlot().setBackgroundPaint(Color.WHITE);
        chart.getPlot().setOutlineVisible(false);
        chart.getPlot().setNoDataMessageFont(TEXT);
        if (chart.getPlot() instanceof CategoryPlot plot) {
            plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
            plot.setRangeGridlinePaint(new Color(0xdddddd));
            plot.getDomainAxis().setTickLabelFont(TEXT);
            plot.getRangeAxis().setTickLabelFont(TEXT);
        }
        if (chart.getPlot() instanceof XYPlot plot) {
            plot.setRangeGridlinePaint(new Color(0xdddddd));
            plot.setDomainGridlinesVisible(false);
            plot.getDomainAxis().setTickLabelFont(TEXT);
            plot.getRangeAxis().setTickLabelFont(TEXT);
        }
        return chart;
    }

    /** Plain filled bars: no gradient, no shadow. */
    private static void flat(BarRenderer renderer) {
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
    }
}
