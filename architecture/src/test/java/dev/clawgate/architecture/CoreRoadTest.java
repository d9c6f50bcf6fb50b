package dev.clawgate.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Core's packages follow the road of ARCHITECTURE.md (issue 16): channel, inbound, dispatch, turn, agent, outbound. A
 * class of a stage may use its own stage, a later one, and the packages off the road (model, store, config, run,
 * prompt, ...); an arrow back up the road is a stage calling back, which ARCHITECTURE rules out. The arrows that ran
 * back when the rule came are listed in {@link #FROZEN}: none may be added, and one that is fixed leaves the list.
 */
class CoreRoadTest {
    static final List<String> ROAD = List.of("channel", "inbound", "dispatch", "turn", "agent", "outbound");
    private static final String CORE = "dev.clawgate.core.";

    /**
     * Every arrow back up the road that core had when this rule came, as {@code fromClass -> toClass} below
     * {@code dev.clawgate.core} (nested classes count as their outermost one). Frozen: a new backward arrow fails
     * {@link #corePackagesFollowTheRoad}, a fixed one fails {@link #everyFrozenArrowStillExists} until it is taken out.
     */
    static final Set<String> FROZEN = Set.of(
            // the inbox is the sink a channel hands its messages to: it implements the channel SPI's InboundSink
            "inbound.Inbox -> channel.InboundSink",
            // the dispatcher debounces and timestamps with the inbound stage's tools
            "dispatch.Dispatcher -> inbound.Debouncer",
            "dispatch.Dispatcher -> inbound.InboundChecks",
            "dispatch.Dispatcher -> inbound.Scheduler",
            // inbound.Scheduler is the timer every stage uses; it belongs off the road (run), a move of 36 files
            "outbound.LiveDraftStream -> inbound.Scheduler",
            "outbound.LivePreview -> inbound.Scheduler",
            "turn.BlockReplies -> inbound.Scheduler",
            "turn.ChannelReceipts -> inbound.Scheduler",
            "turn.TurnServices -> inbound.Scheduler",
            "turn.TypingRefresh -> inbound.Scheduler",
            // the channel SPI's send side (MessageAdapter) is also the road's last stop: the turn and the outbox
            // deliver through it; its lookup by name (Channel) is the turn's
            "outbound.AfterSendHooks -> channel.MessageAdapter",
            "outbound.Delivery -> channel.MessageAdapter",
            "outbound.DeliveryAttempt -> channel.MessageAdapter",
            "outbound.DirectDelivery -> channel.MessageAdapter",
            "outbound.Outbox -> channel.MessageAdapter",
            "outbound.OutboxRecovery -> channel.MessageAdapter",
            "outbound.OutboxWorker -> channel.MessageAdapter",
            "outbound.Payloads -> channel.MessageAdapter",
            "turn.AgentAnswer -> channel.MessageAdapter",
            "turn.BlockReplies -> channel.MessageAdapter",
            "turn.ChannelReceipts -> channel.Channel",
            "turn.ChannelReceipts -> channel.MessageAdapter",
            "turn.FinalReplies -> channel.MessageAdapter",
            "turn.Replies -> channel.MessageAdapter",
            "turn.StopReplies -> channel.Channel",
            "turn.StopReplies -> channel.MessageAdapter",
            "turn.Turn -> channel.MessageAdapter",
            "turn.TurnMessages -> channel.Channel",
            "turn.TurnMessages -> channel.MessageAdapter",
            "turn.TurnPipeline -> channel.Channel",
            "turn.TurnPipeline -> channel.MessageAdapter",
            "turn.TurnServices -> channel.Channel",
            "turn.TypingRefresh -> channel.MessageAdapter",
            // the dispatcher's SPIs the turn implements (TurnRunner, StopHandler, ReceiptListener) and the session
            // status /status reads back from it
            "turn.ChannelReceipts -> dispatch.ReceiptListener",
            "turn.CommandHandler -> dispatch.Dispatcher",
            "turn.StopReplies -> dispatch.StopHandler",
            "turn.TurnPipeline -> dispatch.Dispatcher",
            "turn.TurnPipeline -> dispatch.TurnRunner",
            "turn.TurnServices -> dispatch.Dispatcher");

    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.clawgate.core");
    }

    // SPEC OUT-4, ARCHITECTURE: a stage talks only to the next one and to the store; no stage calls back
    @Test
    void corePackagesFollowTheRoad() {
        ArchRule rule = classes()
                .that()
                .resideInAnyPackage(ROAD.stream().map(p -> CORE + p + "..").toArray(String[]::new))
                .should(useNoEarlierStageOfTheRoad())
                .as("core's stages use only their own stage, later ones and the packages off the road");
        rule.check(core);
    }

    // ARCHITECTURE: the frozen list only shrinks; a fixed arrow is taken out of it
    @Test
    void everyFrozenArrowStillExists() {
        assertThat(backwardArrows()).as("backward arrows in core now").containsAll(FROZEN);
    }

    // ARCHITECTURE: the rule holds on the real classes, not on an empty import
    @Test
    void theRoadsPackagesAreAllThere() {
        for (String stage : ROAD) {
            assertThat(core.stream().map(JavaClass::getPackageName)).contains(CORE + stage);
        }
    }

    static Set<String> backwardArrows() {
        Set<String> arrows = new TreeSet<>();
        for (JavaClass c : core) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String arrow = backward(c, d.getTargetClass());
                if (arrow != null) arrows.add(arrow);
            }
        }
        return arrows;
    }

    /** {@code from -> to} when {@code to} lies on an earlier stage of the road than {@code from}, else null. */
    private static String backward(JavaClass from, JavaClass to) {
        int fromStage = stage(from);
        int toStage = stage(to);
        if (fromStage < 0 || toStage < 0 || toStage >= fromStage) return null;
        return name(from) + " -> " + name(to);
    }

    private static int stage(JavaClass c) {
        String name = c.getName();
        if (!name.startsWith(CORE)) return -1;
        return ROAD.indexOf(name.substring(CORE.length()).split("\\.")[0]);
    }

    /** The outermost class's name below {@code dev.clawgate.core}: {@code turn.TurnPipeline}. */
    private static String name(JavaClass c) {
        String name = c.getName().substring(CORE.length());
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    private static ArchCondition<JavaClass> useNoEarlierStageOfTheRoad() {
        return new ArchCondition<>("use no earlier stage of the road") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                Set<String> reported = new TreeSet<>();
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    String arrow = backward(c, d.getTargetClass());
                    if (arrow != null && !FROZEN.contains(arrow) && reported.add(arrow)) {
                        events.add(SimpleConditionEvent.violated(
                                c, arrow + " runs back up the road (" + d.getDescription() + ")"));
                    }
                }
            }
        };
    }
}
