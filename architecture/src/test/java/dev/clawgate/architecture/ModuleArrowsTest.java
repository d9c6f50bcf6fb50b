package dev.clawgate.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows and nevers of ARCHITECTURE.md, held on the main classes of every module the distribution holds: core names
 * no platform, no channel reaches into the server, the server compiles against no channel (a new channel is one module,
 * with zero lines changed in core).
 */
class ModuleArrowsTest {
    static final String CORE = "dev.clawgate.core..";
    static final String SERVER = "dev.clawgate.server..";
    static final String CHANNELS = "dev.clawgate.channel..";
    static final String CORE_INTERNAL_ROOT = "dev.clawgate.core.internal";
    /** The modules that build on core's SPIs only: everything but the server (the wiring), bench and it. */
    static final String[] SPI_MODULES = {
        CHANNELS,
        "dev.clawgate.provider..",
        "dev.clawgate.store..",
        "dev.clawgate.mcp..",
        "dev.clawgate.embeddings..",
        "dev.clawgate.testkit.."
    };
    /**
     * The platforms of SPEC section 10 and those a channel module may come for; a whole word, any case. Generic words a
     * platform also uses (webhook, email, api) are left out.
     */
    static final Pattern PLATFORM = Pattern.compile(
            "(?i)(?<![a-z])(telegram|slack|discord|matrix|whatsapp|irc|xmpp|lark|feishu|qq|mattermost|signal-cli|imes"
                    + "sage|wechat|line-bot)(?![a-z])");

    private static JavaClasses main;

    @BeforeAll
    static void importTheMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.clawgate");
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void everyModuleIsOnTheClassPathSoNoRuleHoldsVacuously() {
        assertThat(main.stream().map(JavaClass::getPackageName))
                .anyMatch(p -> p.startsWith("dev.clawgate.core"))
                .anyMatch(p -> p.startsWith("dev.clawgate.server"))
                .anyMatch(p -> p.startsWith("dev.clawgate.channel.telegram"))
                .anyMatch(p -> p.startsWith("dev.clawgate.channel.webhook"));
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void coreImportsNoChannelServerStoreOrProvider() {
        // ARCHITECTURE: core depends on Jackson and SLF4J only; a channel's classes never reach core
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        CHANNELS, SERVER, "dev.clawgate.store..", "dev.clawgate.provider..", "dev.clawgate.testkit..")
                .as("core imports no channel, server, store, provider or testkit class");
        rule.check(main);
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void coreHasNoClassOrPackageNamedForAPlatform() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .haveNameMatching(".*(?i)(telegram|slack|discord|matrix|whatsapp|xmpp|feishu|lark)\\w*")
                .as("core has no class or package named for a platform");
        rule.check(main);
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void coreHasNoStringConstantNamingAPlatform() {
        // ARCHITECTURE: "core knows no platform": no "telegram" branch, no per-platform prompt text
        ArchRule rule = classes()
                .that()
                .resideInAPackage(CORE)
                .should(nameNoPlatformInTheirStringConstants())
                .as("core's string constants name no platform");
        rule.check(main);
    }

    // SPEC OUT-4: a channel is one module on core's SPIs; only the wiring reaches into core's internals
    @Test
    void onlyTheWiringUsesCoresInternalPackages() {
        // ARCHITECTURE: core's public face is its SPIs, the model records and the entry points; everything else lives
        // in
        // ...internal packages, which the server (the wiring), bench and it may use, and no module on the SPIs
        assertThat(main.stream().map(JavaClass::getPackageName))
                .anyMatch(p -> p.startsWith(CORE_INTERNAL_ROOT))
                .anyMatch(p -> p.startsWith("dev.clawgate.provider"))
                .anyMatch(p -> p.startsWith("dev.clawgate.store"))
                .anyMatch(p -> p.startsWith("dev.clawgate.mcp"))
                .anyMatch(p -> p.startsWith("dev.clawgate.embeddings"))
                .anyMatch(p -> p.startsWith("dev.clawgate.testkit"));
        ArchRule rule = noClasses()
                .that()
                .resideInAnyPackage(SPI_MODULES)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(CORE_INTERNAL_ROOT + "..")
                .as("channels, providers, store, mcp, embeddings and testkit use core's SPIs, not its internals");
        rule.check(main);
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void noChannelImportsTheServer() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CHANNELS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(SERVER)
                .as("no channel imports server");
        rule.check(main);
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void noChannelImportsAnotherChannel() {
        for (String channel : main.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.startsWith("dev.clawgate.channel."))
                .map(p -> p.split("\\.")[3])
                .distinct()
                .toList()) {
            String own = "dev.clawgate.channel." + channel + "..";
            noClasses()
                    .that()
                    .resideInAPackage(own)
                    .should()
                    .dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                            "another channel's",
                            (JavaClass c) -> c.getPackageName().startsWith("dev.clawgate.channel.")
                                    && !c.getPackageName().startsWith("dev.clawgate.channel." + channel)))
                    .as("channel " + channel + " imports no other channel")
                    .check(main);
        }
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void theServersMainCodeImportsNoChannel() {
        // ARCHITECTURE: channels are found with ServiceLoader; the server depends on them at runtime scope only
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(SERVER)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(CHANNELS)
                .as("server's main code imports no channel class");
        rule.check(main);
    }

    static ArchCondition<JavaClass> nameNoPlatformInTheirStringConstants() {
        return new ArchCondition<>("name no platform in their string constants") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (String literal : literals(c)) {
                    Matcher m = PLATFORM.matcher(literal);
                    if (m.find()) {
                        events.add(SimpleConditionEvent.violated(
                                c,
                                c.getName() + " has the string constant \"" + abbreviate(literal)
                                        + "\", which names the platform '"
                                        + m.group(1).toLowerCase(Locale.ROOT) + "'"));
                    }
                }
            }
        };
    }

    private static List<String> literals(JavaClass c) {
        String resource = "/" + c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.reflect().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("class file of " + c.getName() + " not found");
            return StringConstants.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class file of " + c.getName(), e);
        }
    }

    private static String abbreviate(String s) {
        String one = s.replace("\n", "\\n");
        return one.length() <= 80 ? one : one.substring(0, 77) + "...";
    }
}
