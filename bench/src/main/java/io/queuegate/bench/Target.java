package io.queuegate.bench;

import java.util.Locale;

/** A bound a figure must reach ({@link #atLeast}) or stay within ({@link #atMost}), with the unit it is shown in. */
record Target(boolean minimum, double bound, String unit) {

    static Target atLeast(double bound) {
        return new Target(true, bound, "");
    }

    static Target atMost(double bound) {
        return new Target(false, bound, "");
    }

    static Target atMost(double bound, String unit) {
        return new Target(false, bound, unit);
    }

    /** Whether {@code value} meets the bound; null when there is nothing to judge (not measured, not a number). */
    Boolean holds(Object value) {
        if (!(value instanceof Number number) || Double.isNaN(number.doubleValue())) {
            return null;
        }
        double v = number.doubleValue();
        return this.minimum ? v >= this.bound : v <= this.bound;
    }

    /** As the report's target column shows it: {@code ≥ 0.6}, {@code ≤ 2}, {@code ≤ 130 B}. */
    String text() {
        String bound = this.bound == Math.rint(this.bound) ? String.format(Locale.ROOT, "%,d", (long) this.bound)
                : String.format(Locale.ROOT, "%s", this.bound);
        return (this.minimum ? "≥ " : "≤ ") + bound + (this.unit.isEmpty() ? "" : " " + this.unit);
    }
}
