package io.queuegate.bench;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Map;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ChartTests {

    @Test
    void aSavedRunIsDrawnOnOnePngOfTheReportsSize(@TempDir Path dir) throws Exception {
        BenchRun saved = BenchRun.JSON.readValue(Path.of("results/benchmarks.json").toFile(), BenchRun.class);
        Path png = dir.resolve("run.png");

        Chart.write(saved, png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        assertThat(image.getHeight()).isEqualTo(1050);
    }

    @Test
    void aRunThatMeasuredNothingStillGetsItsChart(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("empty.png");

        Chart.write(BenchRun.of(Map.of("machine", Map.of("cpus", 2))), png);

        assertThat(ImageIO.read(png.toFile())).isNotNull();
    }
}
