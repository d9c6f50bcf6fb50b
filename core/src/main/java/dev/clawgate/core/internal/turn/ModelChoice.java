package dev.clawgate.core.internal.turn;

import dev.clawgate.core.internal.agent.ModelRoute;
import java.util.List;

/**
 * The model a turn will ask, or why there is none.
 *
 * @param problem a one-line explanation of what to configure, when {@code routes} is empty
 */
public record ModelChoice(List<ModelRoute> routes, String routeHint, String problem) {
    public static ModelChoice none(String problem) {
        return new ModelChoice(List.of(), null, problem);
    }

    public boolean available() {
        return !routes.isEmpty();
    }

    public ModelRoute primary() {
        return routes.get(0);
    }
}
