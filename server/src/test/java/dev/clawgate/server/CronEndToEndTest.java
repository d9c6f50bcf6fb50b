package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model schedules a task over Telegram; the gateway's scheduler runs it and the reply reaches the chat once. */
class CronEndToEndTest extends TelegramGatewayFixture {
    @Test
    void aTaskTheModelSchedulesRunsAsATurnAndItsReplyReachesTheChatExactlyOnce() throws Exception {
        // SPEC AG-5 (cron_add: scheduled agent turns delivered to a channel target), OUT-12 (one final reply per fire)
        String at = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS).toString();
        model.enqueue(
                Reply.toolCalls(Reply.call(
                        "cron_add",
                        "{\"prompt\":\"remind alice to stretch\",\"at\":\"" + at + "\","
                                + "\"name\":\"stretch\",\"delivery\":{\"channel\":\"telegram\",\"to\":\"" + dm.id()
                                + "\"}}")),
                Reply.text("Scheduled."),
                Reply.text("Time to stretch, Alice!"));
        start(config(Map.of()));
        tg.sendText(dm, alice, "remind me to stretch in two seconds");

        List<SentMessage> sent = awaitSent(dm, 2);
        assertThat(sent).extracting(SentMessage::text).containsExactly("Scheduled.", "Time to stretch, Alice!");

        // the fired turn is a turn like any other: the model was asked the task as alice's message in her chat
        assertThat(model.chatRequests()).hasSize(3);
        RecordedRequest fired = model.chatRequests().get(2);
        JsonNode last = fired.messages().get(fired.messages().size() - 1);
        assertThat(last.path("content").asText()).contains("[Scheduled task \"stretch\"] remind alice to stretch");
        // the tool result the model saw says when it runs
        assertThat(model.chatRequests().get(1).messages().toString()).contains("Scheduled task 1: once at " + at);

        // a one-shot job is gone once fired, and its reply went through the outbox once
        await().until(() -> gateway.store().cron().all().isEmpty());
        await().until(() -> gateway.store().outbox().counts().get(OutboxState.SENT) == 2L);
        assertThat(gateway.store().outbox().byState(OutboxState.values())).hasSize(2);
        // nothing more arrives: no second fire of the same time
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(2);
        assertThat(tg.sentTo(dm)).hasSize(2);
    }

    @Test
    void aRestartDoesNotRunAFireThatWasAlreadyClaimed() throws Exception {
        // SPEC OUT-12: a fire is recorded before it runs, so a restart never runs it again
        model.enqueue(
                Reply.toolCalls(Reply.call("cron_add", "{\"prompt\":\"say hi\",\"every_minutes\":60}")),
                Reply.text("Every hour it is."),
                Reply.text("hi"));
        start(config(Map.of()));
        tg.sendText(dm, alice, "say hi every hour");
        awaitSent(dm, 1);
        CronJob job = gateway.store().cron().all().getFirst();
        assertThat(job.nextFireAt()).isAfter(Instant.now().plus(Duration.ofMinutes(59)));
        assertThat(job.target().replyTarget()).isEqualTo(String.valueOf(dm.id()));
        assertThat(job.target().sender()).isEqualTo(String.valueOf(alice.id()));
        closeGateway();

        start(config(Map.of()));
        // the job survived the restart and is not due: nothing fired, the model was asked nothing more
        assertThat(gateway.store().cron().all())
                .extracting(CronJob::id, CronJob::nextFireAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(job.id(), job.nextFireAt()));
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(tg.sentTo(dm)).hasSize(1);
    }
}
