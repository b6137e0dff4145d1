package io.queuegate.ingest.front;

import org.springframework.beans.factory.DisposableBean;

import reactor.netty.resources.LoopResources;

/**
 * The front's event loops: one per core, not Reactor's default of at least four, which only adds switches on a small
 * machine. A bean of their own so that the warm-up's scratch copy of the service runs on the service's loops: when
 * the copy closed loops of its own, the JIT threw away its compiled code of the event loop (the branches of a loop
 * that shuts down had never been taken) just before the sale's first requests.
 */
public final class FrontLoops implements DisposableBean {

    private final LoopResources loops;

    FrontLoops(int threads) {
        this.loops = LoopResources.create("ingest-http", threads, true);
    }

    LoopResources loops() {
        return this.loops;
    }

    /** After the server's graceful stop: the front, which uses the loops, is destroyed before them. */
    @Override
    public void destroy() {
        this.loops.disposeLater().block();
    }
}
