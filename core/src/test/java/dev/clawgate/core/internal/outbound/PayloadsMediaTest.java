package dev.clawgate.core.internal.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A final reply's media markers become media payloads at planning time (SPEC OUT-13). */
class PayloadsMediaTest {
    private static final OutboundTarget TO = new OutboundTarget("loop", "default", "chat", null, "m1");

    @TempDir
    Path root;

    private Path workspace;
    private Path dataDir;
    private Payloads payloads;

    @BeforeEach
    void files() throws Exception {
        workspace = Files.createDirectories(root.resolve("workspace"));
        dataDir = Files.createDirectories(root.resolve("data"));
        Files.writeString(workspace.resolve("chart.png"), "png");
        Files.writeString(dataDir.resolve("report.pdf"), "pdf");
        Files.writeString(root.resolve("secret.txt"), "secret");
        payloads = new Payloads(null, new Payloads.MediaRoots(() -> workspace, dataDir));
    }

    private static MessageAdapter adapter(Capability... declared) {
        Set<Capability> caps = EnumSet.of(Capability.TEXT, Capability.REPLY_TO, Capability.MESSAGE_SENDING_HOOKS);
        caps.addAll(List.of(declared));
        return new MessageAdapter() {
            @Override
            public MessageReceipt send(OutboundMessage message, CancelToken cancel) {
                return MessageReceipt.of("x");
            }

            @Override
            public Set<Capability> capabilities() {
                return caps;
            }
        };
    }

    private List<OutboundMessage> parts(String text, OutboundMessage.Kind kind, MessageAdapter adapter) {
        Payloads.Plan plan = payloads.plan(new OutboundMessage(TO, text, kind, 7), adapter);
        assertThat(plan).isInstanceOf(Payloads.Plan.Send.class);
        return ((Payloads.Plan.Send) plan).parts();
    }

    @Test
    void aMarkerBecomesAMediaPayloadAndLeavesTheText() throws Exception {
        // SPEC OUT-13: [IMAGE:p] inside the workspace, [DOCUMENT:p] by absolute path inside the data dir
        String reply = "Here is the chart.\n[IMAGE:chart.png]\n[DOCUMENT:" + dataDir.resolve("report.pdf") + "]";
        List<OutboundMessage> parts = parts(reply, OutboundMessage.Kind.FINAL, adapter(Capability.MEDIA));
        assertThat(parts).extracting(OutboundMessage::text).containsExactly("Here is the chart.", "", "");
        assertThat(parts.get(1).media())
                .containsExactly(new MediaRef(
                        MediaRef.MediaKind.IMAGE,
                        workspace.resolve("chart.png").toRealPath().toString()));
        assertThat(parts.get(2).media())
                .containsExactly(new MediaRef(
                        MediaRef.MediaKind.DOCUMENT,
                        dataDir.resolve("report.pdf").toRealPath().toString()));
        assertThat(parts).extracting(OutboundMessage::part).containsExactly(0, 1, 2);
    }

    @Test
    void theSameTextGivesTheSameMediaOnEveryPlanSoAReplayResendsThem() {
        // SPEC OUT-13, OUT-7: the outbox keeps only the text; planning it again gives the same payloads
        String reply = "see [IMAGE:chart.png]";
        assertThat(parts(reply, OutboundMessage.Kind.FINAL, adapter(Capability.MEDIA)))
                .isEqualTo(parts(reply, OutboundMessage.Kind.FINAL, adapter(Capability.MEDIA)));
    }

    @Test
    void aChannelWithoutMediaGetsTheTextAndANote() {
        // SPEC OUT-13: a channel without media gets the text plus a short note
        assertThat(parts("Here is the chart.\n[IMAGE:chart.png]", OutboundMessage.Kind.FINAL, adapter()))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.text()).isEqualTo("Here is the chart.\n\n[image omitted: chart.png]");
                    assertThat(p.media()).isEmpty();
                });
    }

    @Test
    void aPathOutsideTheWorkspaceAndDataDirIsRefusedAndTheMarkerStillLeaves() {
        // SPEC OUT-13, AG-5: no .. out of the workspace, no absolute path elsewhere; the user never sees protocol text
        String reply = "nothing for you [DOCUMENT:../secret.txt] [DOCUMENT:" + root.resolve("secret.txt") + "]";
        assertThat(parts(reply, OutboundMessage.Kind.FINAL, adapter(Capability.MEDIA)))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.text()).isEqualTo("nothing for you");
                    assertThat(p.media()).isEmpty();
                });
    }

    @Test
    void onlyFinalRepliesAreReadForMarkers() {
        // SPEC OUT-13 is about final replies; a notice is sent as written
        assertThat(parts("[IMAGE:chart.png]", OutboundMessage.Kind.NOTICE, adapter(Capability.MEDIA)))
                .singleElement()
                .satisfies(p -> assertThat(p.text()).isEqualTo("[IMAGE:chart.png]"));
    }

    @Test
    void aReplyOfOnlyARefusedMarkerHasNothingVisibleToSend() {
        // SPEC OUT-13, OUT-5: no_visible_payload rather than an empty message
        assertThat(payloads.plan(
                        new OutboundMessage(TO, "[IMAGE:/etc/passwd]", OutboundMessage.Kind.FINAL, 7),
                        adapter(Capability.MEDIA)))
                .isEqualTo(new Payloads.Plan.Suppress(SuppressionReason.NO_VISIBLE_PAYLOAD, null));
    }
}
