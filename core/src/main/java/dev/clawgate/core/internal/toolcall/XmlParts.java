package dev.clawgate.core.internal.toolcall;

import java.util.ArrayList;
import java.util.List;

/**
 * The flat XML-ish children of a call body ({@code <query>x</query>}, {@code <parameter name="k">v</parameter>}), read
 * in one pass: each child's close tag is found with a {@link Finder}, so a body full of unclosed tags costs linear
 * time, not the quadratic time a backtracking pattern would.
 */
final class XmlParts {
    /** One child element: its lower-case name, raw attributes and inner text. */
    record Element(String name, String attrs, String inner) {}

    private XmlParts() {}

    /** Top-level children in order; text between them and unclosed tags are skipped. */
    static List<Element> children(String body) {
        List<Element> out = new ArrayList<>();
        Finder finder = new Finder(body);
        int i = 0;
        while (true) {
            int lt = body.indexOf('<', i);
            if (lt < 0) break;
            Tag t = Tag.read(body, lt, true);
            if (t == Tag.NONE || t.closing() || t.selfClosing()) {
                i = lt + 1;
                continue;
            }
            String close = "</" + t.name() + ">";
            int c = finder.find(close, t.end());
            if (c < 0) {
                i = t.end();
                continue;
            }
            out.add(new Element(t.name(), t.attrs(), body.substring(t.end(), c)));
            i = c + close.length();
        }
        ScanWork.add(finder.steps() + body.length());
        return out;
    }

    /** The body as one element {@code <name ...>inner</name>}, or null when it is not exactly that. */
    static Element whole(String body) {
        Tag t = Tag.read(body, 0, true);
        if (t == Tag.NONE || t.closing() || t.selfClosing()) return null;
        String close = "</" + t.name() + ">";
        String lower = body.toLowerCase(java.util.Locale.ROOT);
        if (!lower.endsWith(close) || body.length() - close.length() < t.end()) return null;
        return new Element(t.name(), t.attrs(), body.substring(t.end(), body.length() - close.length()));
    }
}
