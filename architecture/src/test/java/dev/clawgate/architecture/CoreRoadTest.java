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
 * Core's packages follow the road of ARCHITECTURE.md (issue 16): channel, inbound, dispatch, turn, agent, outbound,
 * each stage in its package under {@code dev.clawgate.core.internal}. A class of a stage may use its own stage, a later
 * one, and the packages off the road (the channel SPI, model, store, config, run, prompt, ...); an arrow back up the
 * road is a stage calling back, which ARCHITECTURE rules out. When the rule came, 39 arrows ran back; the move to
 * internal packages and the dispatcher's shared types off the road ({@code internal.run}) ended them all, so the rule
 * has no exceptions.
 */
class CoreRoadTest {
    static final List<String> ROAD = List.of(
            "internal.channel",
            "internal.inbound",
            "internal.dispatch",
            "internal.turn",
            "internal.agent",
            "internal.outbound");
    private static final String CORE = "dev.clawgate.core.";

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

    // ARCHITECTURE: the same check over every class at once, as one list of arrows a reviewer can read
    @Test
    void noArrowRunsBackUpTheRoad() {
        assertThat(backwardArrows()).as("backward arrows in core").isEmpty();
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
        String below = name.substring(CORE.length());
        for (int i = 0; i < ROAD.size(); i++) {
            if (below.startsWith(ROAD.get(i) + ".")) return i;
        }
        return -1;
    }

    /** The outermost class's name below {@code dev.clawgate.core}: {@code internal.turn.TurnPipeline}. */
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
                    if (arrow != null && reported.add(arrow)) {
                        events.add(SimpleConditionEvent.violated(
                                c, arrow + " runs back up the road (" + d.getDescription() + ")"));
                    }
                }
            }
        };
    }
}
