package io.queuegate.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

import javax.imageio.ImageIO;

/**
 * The run on one PNG: each figure as a ratio to its same-run yardstick with the target marked, where the CPU went in
 * each phase, and the end-to-end sale second by second. Plain Java2D, headless.
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
        ratios(g, r, 30, 70, 650, 420);
        cpu(g, r, 720, 70, 650, 420);
        timeline(g, r, 30, 560, 1340, 440);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void ratios(Graphics2D g, BenchRun r, int x, int y, int w, int h) {
        title(g, "Measured ÷ yardstick of the same run (target marked red)", x, y);
        RateFigure ingest = r.ingestFigure();
        RateFigure status = r.statusFigure();
        List<Object[]> bars = new ArrayList<>();
        bars.add(new Object[] {"1a enters ÷ plain no-op POST", rateRatio(ingest, RateFigure.PLAIN_NOOP),
            Targets.ENTERS_TO_PLAIN_NOOP});
        bars.add(new Object[] {"1b enters ÷ seed design", rateRatio(ingest, RateFigure.SEED), Targets.ENTERS_TO_SEED});
        bars.add(new Object[] {"1c ingest CPU ÷ no-op app's", ingest == null ? null : ingest.ingestCpuToPlainNoop(),
            Targets.INGEST_CPU_TO_PLAIN_NOOP});
        bars.add(new Object[] {"2a drain from the log ÷ ZADD",
            r.drain() == null ? null : r.drain().backlogRatio(), Targets.DRAIN_TO_ZADD});
        bars.add(new Object[] {"2b produced and drained ÷ ZADD", r.drain() == null ? null : r.drain().ratio(), null});
        bars.add(new Object[] {"3a polls ÷ plain no-op GET", rateRatio(status, RateFigure.PLAIN_NOOP),
            Targets.POLLS_TO_PLAIN_NOOP});
        bars.add(new Object[] {"3b polls ÷ seed design", rateRatio(status, RateFigure.SEED), null});
        bars.add(new Object[] {"3c ingest CPU ÷ no-op app's", status == null ? null : status.ingestCpuToPlainNoop(),
            Targets.INGEST_CPU_TO_PLAIN_NOOP});
        bars.add(new Object[] {"4 admission: bare script ÷ tick", r.admission() == null ? null : r.admission().ratio(),
            null});
        bars.add(new Object[] {"5 booking ÷ no-op POST", r.booking() == null ? null : r.booking().ratio(), null});
        bars.add(new Object[] {"6 sell-out: ideal ÷ actual", r.e2e() == null ? null : r.e2e().sellOutRatio(), null});
        bars.add(new Object[] {"6 admitted/s ÷ setting", r.e2e() == null ? null : r.e2e().admissionAccuracy(), null});
        Object memory = r.memory() == null ? null : r.memory().ratio();
        bars.add(new Object[] {"7 bare ZSet ÷ bytes per user", memory instanceof Number m ? 1 / m.doubleValue() : null, null});
        double max = 1.2;
        for (Object[] bar : bars) {
            if (bar[1] instanceof Number n) {
                max = Math.max(max, Math.min(3, n.doubleValue() * 1.1));
            }
            if (bar[2] instanceof Target target) {
                max = Math.max(max, Math.min(3, target.bound() * 1.1));
            }
        }
        int labelWidth = 230;
        int plotX = x + labelWidth;
        int plotW = w - labelWidth - 20;
        int rowH = (h - 60) / bars.size();
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (int i = 0; i < bars.size(); i++) {
            Object[] bar = bars.get(i);
            int rowY = y + 25 + i * rowH;
            g.setColor(Color.BLACK);
            g.drawString((String) bar[0], x, rowY + rowH / 2 + 5);
            if (bar[1] instanceof Number n) {
                double value = n.doubleValue();
                int len = (int) (Math.min(value, max) / max * plotW);
                boolean fails = bar[2] instanceof Target t && Boolean.FALSE.equals(t.holds(value));
                g.setColor(fails ? new Color(0xe6a0a0) : new Color(0x7fb3d5));
                g.fillRect(plotX, rowY + 6, len, rowH - 12);
                g.setColor(Color.BLACK);
                g.drawString(String.format(Locale.ROOT, "%.2f", value), plotX + len + 5, rowY + rowH / 2 + 5);
            }
            else {
                g.setColor(Color.GRAY);
                g.drawString("not measured", plotX + 5, rowY + rowH / 2 + 5);
            }
            if (bar[2] instanceof Target target) {
                int tx = plotX + (int) (Math.min(target.bound(), max) / max * plotW);
                g.setColor(Color.RED);
                g.setStroke(new BasicStroke(3));
                g.drawLine(tx, rowY + 2, tx, rowY + rowH - 2);
                g.setStroke(new BasicStroke(1));
            }
        }
        int axisY = y + 25 + bars.size() * rowH;
        g.setColor(Color.DARK_GRAY);
        g.drawLine(plotX, y + 25, plotX, axisY);
        g.drawLine(plotX, axisY, plotX + plotW, axisY);
        int oneX = plotX + (int) (1 / max * plotW);
        g.setStroke(new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1, new float[] {4, 4}, 0));
        g.drawLine(oneX, y + 25, oneX, axisY);
        g.setStroke(new BasicStroke(1));
        g.drawString("0", plotX - 3, axisY + 16);
        g.drawString("1", oneX - 3, axisY + 16);
        g.drawString(String.format(Locale.ROOT, "%.1f", max), plotX + plotW - 10, axisY + 16);
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

    private static void cpu(Graphics2D g, BenchRun r, int x, int y, int w, int h) {
        title(g, "Cores in use per phase, by process", x, y);
        List<Object[]> phases = cpuPhases(r);
        double cores = Math.max(1, r.machine().cpus());
        int labelWidth = 190;
        int plotX = x + labelWidth;
        int plotW = w - labelWidth - 20;
        int rowH = phases.isEmpty() ? 30 : Math.min(40, (h - 90) / phases.size());
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (int i = 0; i < phases.size(); i++) {
            Object[] phase = phases.get(i);
            Map<?, ?> used = (Map<?, ?>) phase[1];
            int rowY = y + 25 + i * rowH;
            g.setColor(Color.BLACK);
            g.drawString((String) phase[0], x, rowY + rowH / 2 + 5);
            double at = 0;
            for (Map.Entry<String, Color> process : PROCESS_COLORS.entrySet()) {
                if (used.get(process.getKey()) instanceof Number n) {
                    int from = plotX + (int) (Math.min(at, cores) / cores * plotW);
                    at += n.doubleValue();
                    int to = plotX + (int) (Math.min(at, cores) / cores * plotW);
                    g.setColor(process.getValue());
                    g.fillRect(from, rowY + 5, Math.max(0, to - from), rowH - 10);
                }
            }
        }
        int axisY = y + 25 + phases.size() * rowH;
        g.setColor(Color.DARK_GRAY);
        g.drawLine(plotX, axisY, plotX + plotW, axisY);
        for (int c = 0; c <= (int) cores; c++) {
            int cx = plotX + (int) (c / cores * plotW);
            g.drawLine(cx, axisY, cx, axisY + 4);
            g.drawString(c + " core" + (c == 1 ? "" : "s"), cx - 15, axisY + 18);
        }
        int lx = x;
        int ly = axisY + 40;
        for (Map.Entry<String, Color> process : PROCESS_COLORS.entrySet()) {
            int width = 16 + g.getFontMetrics().stringWidth(process.getKey()) + 10;
            if (lx + width > x + w) {
                lx = x;
                ly += 18;
            }
            g.setColor(process.getValue());
            g.fillRect(lx, ly - 11, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(process.getKey(), lx + 16, ly);
            lx += width;
        }
    }

    private static void timeline(Graphics2D g, BenchRun r, int x, int y, int w, int h) {
        EndToEndFigure e2e = r.e2e() != null ? r.e2e() : Figures.typed(Map.of(), EndToEndFigure.class);
        title(g, String.format("End to end, per second: %s users entering over %s s, admitPerSecond %s, stock %s",
                e2e.users(), e2e.windowSeconds(), e2e.admitPerSecondSetting(), e2e.stock()), x, y);
        List<EndToEndFigure.Second> rows = e2e.timeline();
        if (rows == null || rows.isEmpty()) {
            g.drawString("not measured", x + 20, y + 60);
            return;
        }
        String[] series = {"enters", "polls", "admitted", "bookings"};
        List<ToLongFunction<EndToEndFigure.Second>> values = List.of(EndToEndFigure.Second::enters,
                EndToEndFigure.Second::polls, EndToEndFigure.Second::admitted, EndToEndFigure.Second::bookings);
        Color[] colors = {new Color(0x1f77b4), new Color(0x7f7f7f), new Color(0xff7f0e), new Color(0x2ca02c)};
        double max = 1;
        for (EndToEndFigure.Second row : rows) {
            for (ToLongFunction<EndToEndFigure.Second> value : values) {
                max = Math.max(max, value.applyAsLong(row));
            }
        }
        max = niceCeiling(max);
        int plotX = x + 70;
        int plotY = y + 30;
        int plotW = w - 90;
        int plotH = h - 80;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.setColor(Color.DARK_GRAY);
        g.drawRect(plotX, plotY, plotW, plotH);
        for (int i = 0; i <= 4; i++) {
            int gy = plotY + plotH - i * plotH / 4;
            g.setColor(new Color(0xeeeeee));
            g.drawLine(plotX + 1, gy, plotX + plotW - 1, gy);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format("%,d", Math.round(max * i / 4)), x, gy + 5);
        }
        int n = rows.size();
        for (int i = 0; i < n; i += Math.max(1, n / 15)) {
            int gx = plotX + (int) ((i + 0.5) / n * plotW);
            g.drawString(i + " s", gx - 8, plotY + plotH + 18);
        }
        g.setStroke(new BasicStroke(2.5f));
        for (int s = 0; s < series.length; s++) {
            g.setColor(colors[s]);
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < n; i++) {
                double value = values.get(s).applyAsLong(rows.get(i));
                int px = plotX + (int) ((i + 0.5) / n * plotW);
                int py = plotY + plotH - (int) (value / max * plotH);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, px, py);
                }
                prevX = px;
                prevY = py;
            }
        }
        g.setStroke(new BasicStroke(1));
        int lx = plotX + 10;
        for (int s = 0; s < series.length; s++) {
            g.setColor(colors[s]);
            g.fillRect(lx, plotY + 10, 14, 4);
            g.setColor(Color.BLACK);
            g.drawString(series[s] + "/s", lx + 18, plotY + 16);
            lx += 110;
        }
    }

    private static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static void title(Graphics2D g, String text, int x, int y) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(text, x, y);
    }
}
