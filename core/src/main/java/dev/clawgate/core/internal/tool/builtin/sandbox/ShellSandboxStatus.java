package dev.clawgate.core.internal.tool.builtin.sandbox;

import dev.clawgate.core.config.ShellSandboxMode;
import java.util.List;
import java.util.Optional;

/**
 * What the shell tool runs in here (SPEC AG-8): the sandbox, or none when the shell tool is off (no working sandbox, or
 * an empty allowlist), and the findings that say why and which limits hold.
 */
public record ShellSandboxStatus(ShellSandboxMode mode, Optional<ShellSandbox> sandbox, List<SandboxFinding> findings) {
    public ShellSandboxStatus {
        findings = List.copyOf(findings);
    }
}
