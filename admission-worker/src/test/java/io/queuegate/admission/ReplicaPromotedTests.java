package io.queuegate.admission;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;
import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis master failed over by Sentinel to a replica that misses the master's last writes. A private master, a
 * replica of it and a Sentinel are started here as {@code redis-server} processes; the worker under test follows the
 * master through the Sentinel by configuration alone ({@code spring.data.redis.sentinel.*}). Replication is stopped
 * (the replica is given a password the master does not ask for, and its link dropped), 200 more enters go into the
 * master's line only, and the master is killed with SIGKILL. The promoted replica has the lines' id and an older
 * line, under another process: the writer restores the sale and reads the log again, and the 200 come back ahead of
 * the enter made after the promotion, in log order, each once.
 *
 * <p>The product has no queue setting, booking, leave or admission in the log, so the restore knows nothing of it but
 * its enters and does not stamp its line for the new process. The line then takes the replay's appends because the
 * writer sends the process it restored the sale for; without that it refused them for good, the writer restored the
 * sale again and again, and every enter of the product stayed PENDING.
 */
class ReplicaPromotedTests extends OwnRedisWorkerTestSupport {

    private static final String MASTER_NAME = "queuegate-replica-test";

    private final List<Process> servers = new ArrayList<>();

    private final List<RedisClient> clients = new ArrayList<>();

    private Path directory;

    private Process master;

    private RedisCommands<String, String> replica;

    @BeforeEach
    void startRedisSentinelAndWorker() throws IOException {
        this.directory = Files.createTempDirectory("queuegate-replica-promoted-");
        int masterPort = freePort();
        int replicaPort = freePort();
        int sentinelPort = freePort();
        this.master = startServer("master", masterPort);
        startServer("replica", replicaPort, "replicaof 127.0.0.1 " + masterPort);
        this.replica = connect(replicaPort);
        await().atMost(Duration.ofSeconds(20))
            .until(() -> this.replica.info("replication").contains("master_link_status:up"));
        // a Sentinel promotes no replica whose link has been down longer than ten down-after periods: the test's
        // replica stops replicating some seconds before the kill
        startServer("sentinel", sentinelPort, "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 1",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 2000",
                "sentinel failover-timeout " + MASTER_NAME + " 5000");
        RedisClient sentinelClient = RedisClient.create(RedisURI.create("127.0.0.1", sentinelPort));
        this.clients.add(sentinelClient);
        RedisSentinelCommands<String, String> sentinel = sentinelClient.connectSentinel().sync();
        // the Sentinel learns of the replica from the master; one it does not know cannot be promoted
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
            .until(() -> sentinel.replicas(MASTER_NAME).size() == 1);

        startWorker("--spring.data.redis.sentinel.master=" + MASTER_NAME,
                "--spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinelPort);
    }

    @Override
    void stopRedis() throws InterruptedException {
        this.clients.forEach(RedisClient::shutdown);
        for (Process server : this.servers) {
            server.destroyForcibly().waitFor();
        }
    }

    @Test
    void entersAPromotedReplicaMissedComeBackFromTheLogAheadOfLaterOnes() {
        long product = newProduct();
        String waiting = QueueKeys.of(product).waiting();
        List<String> users = enter(product, "kept", 300);
        await().atMost(RESTORED).until(() -> waiting(product).size() == 300);
        await().atMost(RESTORED).until(() -> this.replica.zcard(waiting) == 300);

        // replication stops: the replica's next handshake fails (the master asks for no password, and refuses one)
        this.replica.configSet("masterauth", "not-the-masters-" + UUID.randomUUID());
        this.replica.clientKill(KillArgs.Builder.typeMaster());
        await().atMost(Duration.ofSeconds(10))
            .until(() -> this.replica.info("replication").contains("master_link_status:down"));
        users.addAll(enter(product, "lost", 200));
        await().atMost(RESTORED).until(() -> waiting(product).size() == 500);
        assertThat(this.replica.zcard(waiting)).as("the replica is behind").isEqualTo(300);

        this.master.destroyForcibly();
        await().atMost(RESTORED).ignoreExceptions()
            .until(() -> this.replica.info("replication").contains("role:master"));

        // one enter after the promotion: it must stand behind everyone the replica missed, not take their place
        users.addAll(enter(product, "after", 1));

        await().atMost(RESTORED).ignoreExceptions().until(() -> waiting(product).size() == 501);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(this.replica.zscore(waiting, users.getLast())).isEqualTo(501.0);
        assertThat(this.replica.hget(QueueKeys.of(product).stats(), "enteredTotal")).isEqualTo("501");
    }

    private RedisCommands<String, String> connect(int port) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        this.clients.add(client);
        return client.connect().sync();
    }

    /**
     * A redis-server of this test's own, without persistence, from a configuration file of its own: a Sentinel needs
     * one to write its state to, and rewrites the promoted replica's.
     */
    private Process startServer(String name, int port, String... settings) throws IOException {
        Path config = this.directory.resolve(name + ".conf");
        Path log = this.directory.resolve(name + ".log");
        List<String> lines = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "dir " + this.directory,
                "logfile " + log, "save \"\"", "appendonly no", "dbfilename " + name + ".rdb"));
        lines.addAll(List.of(settings));
        Files.write(config, lines);
        List<String> command = new ArrayList<>(List.of("redis-server", config.toString()));
        if (name.equals("sentinel")) {
            command.add("--sentinel");
        }
        Process started = new ProcessBuilder(command).start();
        this.servers.add(started);
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
            .until(() -> Files.readString(log).contains(name.equals("sentinel") ? "+monitor master"
                    : "Ready to accept connections"));
        return started;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
