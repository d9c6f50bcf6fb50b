package dev.clawgate.core.internal.multimodal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublicAddressesTest {
    @Test
    void reservedSpecialAndEmbeddedPrivateAddressesAreNotPublic() {
        // SPEC AG-4, AG-5 web_fetch: public addresses only
        List<String> blocked = List.of(
                "0.0.0.0",
                "0.1.2.3",
                "10.0.0.1",
                "100.64.0.1",
                "100.127.255.254",
                "127.0.0.1",
                "127.8.9.10",
                "169.254.169.254",
                "172.16.0.1",
                "172.31.255.255",
                "192.0.0.8",
                "192.0.2.1",
                "192.88.99.1",
                "192.168.1.1",
                "198.18.0.1",
                "198.19.255.255",
                "198.51.100.7",
                "203.0.113.9",
                "224.0.0.1",
                "239.255.255.250",
                "240.0.0.1",
                "255.255.255.255",
                "::",
                "::1",
                "fe80::1",
                "fec0::1",
                "fc00::1",
                "fd12:3456::1",
                "ff02::1",
                "2001:db8::1",
                "::ffff:127.0.0.1",
                "::ffff:10.1.2.3",
                "::127.0.0.1",
                "64:ff9b::a00:1",
                "64:ff9b::7f00:1",
                "2002:7f00:1::1",
                "2002:c0a8:101::1",
                "2001::1");
        for (String a : blocked)
            assertThat(PublicAddresses.isPublic(PublicAddresses.literal(a)))
                    .as(a)
                    .isFalse();
    }

    @Test
    void ordinaryPublicAddressesArePublic() {
        // SPEC AG-4, AG-5
        List<String> open = List.of(
                "93.184.216.34",
                "1.1.1.1",
                "8.8.8.8",
                "100.63.255.255",
                "100.128.0.1",
                "172.32.0.1",
                "198.20.0.1",
                "223.255.255.255",
                "2606:4700::1111",
                "2a00:1450:4001::200e",
                "64:ff9b::808:808",
                "2002:808:808::1");
        for (String a : open)
            assertThat(PublicAddresses.isPublic(PublicAddresses.literal(a)))
                    .as(a)
                    .isTrue();
    }

    @Test
    void aHostIsPublicOnlyWhenEveryAddressIs() {
        // SPEC AG-4: one private address among public ones refuses the host
        InetAddress pub = PublicAddresses.literal("93.184.216.34");
        assertThat(PublicAddresses.allPublic(new InetAddress[] {pub})).isTrue();
        assertThat(PublicAddresses.allPublic(new InetAddress[] {pub, PublicAddresses.literal("198.18.0.1")}))
                .isFalse();
        assertThat(PublicAddresses.allPublic(new InetAddress[0])).isFalse();
    }
}
