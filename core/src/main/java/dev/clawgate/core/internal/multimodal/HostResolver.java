package dev.clawgate.core.internal.multimodal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Every address a host name resolves to (SPEC AG-4, AG-5). {@link PublicWeb} asks once per connection and hands exactly
 * the answer it checked to the connection; tests put a resolver here that answers differently each time (DNS rebinding)
 * or names private addresses.
 */
@FunctionalInterface
public interface HostResolver {
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /** The system's resolver ({@link InetAddress#getAllByName}); a literal address is returned as it is. */
    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));
}
