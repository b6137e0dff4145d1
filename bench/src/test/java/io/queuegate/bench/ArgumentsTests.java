package io.queuegate.bench;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ArgumentsTests {

    private static final Path ROOT = Path.of("/repo");

    @Test
    void noArgumentsIsTheFullRunThatRewritesTheReport() {
        Options options = parse();

        assertThat(options.quick()).isFalse();
        assertThat(options.scenarios()).containsExactlyElementsOf(Options.ALL);
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(20));
        assertThat(options.drainEvents()).isEqualTo(1_000_000);
        assertThat(options.connections()).isEqualTo(64);
        assertThat(options.label()).isEqualTo("full");
        assertThat(options.command()).isEqualTo("./bench.sh");
        assertThat(options.writeReport()).isTrue();
        assertThat(options.reportFile()).isEqualTo(ROOT.resolve("docs/BENCHMARKS.md"));
        assertThat(options.outputDir()).isEqualTo(ROOT.resolve("bench/results"));
    }

    @Test
    void quickScalesTheRunDownAndWritesToScratch() {
        Options options = parse("--quick");

        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.drainEvents()).isEqualTo(100_000);
        assertThat(options.e2eUsers()).isEqualTo(20_000);
        assertThat(options.label()).isEqualTo("quick");
        assertThat(options.command()).isEqualTo("./bench.sh --quick");
        assertThat(options.writeReport()).isFalse();
        assertThat(options.outputDir()).isEqualTo(ROOT.resolve("bench/results/tmp"));
        assertThat(parse("--quick=false").quick()).isFalse();
    }

    @Test
    void givenValuesWinOverDefaultsAndIntegersMayCarryUnderscores() {
        Options options = parse("--only=ingest, status", "--drain-events=2_000_000", "--e2e-window=7", "--label=x",
                "--connections=8", "--connections=16");

        assertThat(options.scenarios()).containsExactly("ingest", "status");
        assertThat(options.drainEvents()).isEqualTo(2_000_000);
        assertThat(options.e2eWindow()).isEqualTo(Duration.ofSeconds(7));
        assertThat(options.label()).isEqualTo("x");
        assertThat(options.connections()).isEqualTo(16);
        assertThat(options.writeReport()).isFalse();
    }

    @Test
    void aRunFromJsonRewritesTheReportUnlessToldNotTo() {
        assertThat(parse("--from-json=run.json", "--quick").writeReport()).isTrue();
        assertThat(parse("--from-json=run.json", "--write-report=false").writeReport()).isFalse();
    }

    @Test
    void theYardstickCheckRunsAlone() {
        assertThat(parse("--only=yardsticks").onlyYardsticks()).isTrue();
        assertThat(parse("--only=yardsticks").label()).isEqualTo("yardsticks");
        assertThatExceptionOfType(ParameterException.class).isThrownBy(() -> parse("--only=yardsticks,e2e"))
            .withMessageContaining("runs alone");
    }

    @Test
    void unknownOptionsScenariosAndArgumentsAreRefused() {
        assertThatExceptionOfType(ParameterException.class).isThrownBy(() -> parse("--warmpu=3"))
            .withMessageContaining("Unknown option: '--warmpu=3'");
        assertThatExceptionOfType(ParameterException.class).isThrownBy(() -> parse("--only=ingest,bogus"))
            .withMessageContaining("unknown scenario bogus");
        assertThatExceptionOfType(ParameterException.class).isThrownBy(() -> parse("quick"));
    }

    @Test
    void helpIsRecognised() {
        CommandLine cli = Arguments.commandLine();
        cli.parseArgs("--help");

        assertThat(cli.isUsageHelpRequested()).isTrue();
    }

    private static Options parse(String... args) {
        CommandLine cli = Arguments.commandLine();
        return cli.<Arguments>getCommand().options(cli.parseArgs(args), ROOT);
    }
}
