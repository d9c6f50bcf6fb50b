package dev.clawgate.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time the benchmark JVM spent per operation, and how busy the whole machine was. On a shared machine wall-clock
 * latency depends on the neighbours; CPU time per turn much less, and the machine load says how far to trust the
 * wall-clock numbers. Use with {@code -prof dev.clawgate.bench.ProcessCpuProfiler}.
 */
public final class ProcessCpuProfiler implements InternalProfiler {
    private final OperatingSystemMXBean os;
    private long cpuStart;
    private long wallStart;

    public ProcessCpuProfiler() {
        if (!(ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean bean)) {
            throw new IllegalStateException(
                    "this JVM does not report process CPU time (com.sun.management.OperatingSystemMXBean)");
        }
        this.os = bean;
    }

    @Override
    public String getDescription() {
        return "Process CPU time per operation and machine CPU load";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // getCpuLoad reports the load since its previous call: this call starts the iteration's window
        os.getCpuLoad();
        wallStart = System.nanoTime();
        cpuStart = os.getProcessCpuTime();
    }

    @Override
    public List<? extends Result<?>> afterIteration(
            BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        double machine = os.getCpuLoad();
        long ops = result.getMetadata().getAllOps();
        return List.of(
                new ScalarResult(
                        "cpu.time.norm", ops == 0 ? Double.NaN : cpu / 1_000.0 / ops, "us/op", AggregationPolicy.AVG),
                new ScalarResult(
                        "cpu.cores", wall == 0 ? Double.NaN : (double) cpu / wall, "cores", AggregationPolicy.AVG),
                new ScalarResult(
                        "machine.cpu.load", machine < 0 ? Double.NaN : machine * 100, "%", AggregationPolicy.AVG));
    }
}
