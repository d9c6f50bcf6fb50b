package dev.clawgate.core.internal.multimodal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Which addresses count as public for remote fetches (SPEC AG-4 images, AG-5 {@code web_fetch}): none of loopback,
 * private, link-local, shared (CGNAT), benchmarking, documentation, reserved, multicast, broadcast or "this network"
 * ranges, in IPv4 or IPv6, nor an IPv6 address that embeds such an IPv4 one (mapped, compatible, NAT64, 6to4).
 */
public final class PublicAddresses {
    private PublicAddresses() {}

    /** IPv4 ranges that are never a public web server, as (network, prefix length). */
    private static final int[][] V4_BLOCKED = {
        {0x00000000, 8}, // 0.0.0.0/8 "this network"
        {0x0a000000, 8}, // 10.0.0.0/8 private
        {0x64400000, 10}, // 100.64.0.0/10 shared address space (CGNAT)
        {0x7f000000, 8}, // 127.0.0.0/8 loopback
        {0xa9fe0000, 16}, // 169.254.0.0/16 link-local
        {0xac100000, 12}, // 172.16.0.0/12 private
        {0xc0000000, 24}, // 192.0.0.0/24 IETF protocol assignments
        {0xc0000200, 24}, // 192.0.2.0/24 documentation
        {0xc0586300, 24}, // 192.88.99.0/24 6to4 relay anycast
        {0xc0a80000, 16}, // 192.168.0.0/16 private
        {0xc6120000, 15}, // 198.18.0.0/15 benchmarking
        {0xc6336400, 24}, // 198.51.100.0/24 documentation
        {0xcb007100, 24}, // 203.0.113.0/24 documentation
        {0xe0000000, 4}, // 224.0.0.0/4 multicast
        {0xf0000000, 4}, // 240.0.0.0/4 reserved, and 255.255.255.255 broadcast
    };

    /** True when every address is public; an empty list is not. */
    public static boolean allPublic(InetAddress[] addresses) {
        if (addresses == null || addresses.length == 0) return false;
        return Arrays.stream(addresses).allMatch(PublicAddresses::isPublic);
    }

    public static boolean isPublic(InetAddress a) {
        if (a.isAnyLocalAddress()
                || a.isLoopbackAddress()
                || a.isLinkLocalAddress()
                || a.isSiteLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) return v4Public(b);
        if (a instanceof Inet6Address) return v6Public(b);
        return false;
    }

    private static boolean v4Public(byte[] b) {
        int ip = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        for (int[] range : V4_BLOCKED) {
            int mask = range[1] == 0 ? 0 : -1 << (32 - range[1]);
            if ((ip & mask) == range[0]) return false;
        }
        return true;
    }

    private static boolean v6Public(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if ((first & 0xfe) == 0xfc) return false; // fc00::/7 unique local
        if (first == 0xfe && (second & 0xc0) == 0xc0) return false; // fec0::/10 site-local (deprecated)
        if (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8)
            return false; // 2001:db8::/32 documentation
        if (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x00 && (b[3] & 0xfe) == 0x00)
            return false; // 2001::/23 IETF (Teredo, ORCHID...)
        // the first 80 bits zero: ::/96 (IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped) carry an IPv4 address
        if (zero(b, 0, 10) && (zero(b, 10, 12) || ((b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff))) {
            return v4Public(Arrays.copyOfRange(b, 12, 16));
        }
        if (first == 0x00 && second == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
            return v4Public(Arrays.copyOfRange(b, 12, 16)); // 64:ff9b::/96 NAT64
        }
        if (first == 0x20 && second == 0x02) return v4Public(Arrays.copyOfRange(b, 2, 6)); // 2002::/16 6to4
        return true;
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) if (b[i] != 0) return false;
        return true;
    }

    /** For tests and callers holding literal addresses: the address of a literal, without DNS. */
    static InetAddress literal(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
