package dev.clawgate.core.render;

/**
 * The markdown tables of a reply that is still streaming (SPEC OUT-1, OUT-2): which header a block that goes on with a
 * table repeats. Read in the whole reply so far, because the buffer of a block stream may start inside a table and
 * would take two of its rows for a header.
 */
final class ReplyTables {
    private final StringBuilder reply = new StringBuilder();
    private final TextMeasure measure;

    ReplyTables(TextMeasure measure) {
        this.measure = measure;
    }

    void append(String delta) {
        reply.append(delta);
    }

    /**
     * The header (and separator) to repeat before a block whose first row starts {@code fromEnd} characters before the
     * reply's end; or null.
     */
    String headerForRowAt(int fromEnd) {
        Layout.Table table = new Layout(reply.toString(), measure).tableContinuedAt(reply.length() - fromEnd);
        return table == null ? null : table.repeatedHeader();
    }

    /**
     * The header to repeat when the reply so far ends with a table row and a line break (the table may go on); or null.
     */
    String headerAfterLastRow() {
        int end = reply.length();
        if (end < 2
                || reply.charAt(end - 1) != '\n'
                || reply.substring(reply.lastIndexOf("\n", end - 2) + 1, end).isBlank()) return null;
        Layout.Table table = new Layout(reply.toString(), measure).tableAt(end - 2);
        return table == null ? null : table.repeatedHeader();
    }

    /**
     * Whether a repeated {@code header} no longer belongs before {@code pending}: its first line is blank or has no '|'
     * (the table ended), or the header and that row do not fit a block (then the table is cut like lines, as the
     * {@link Chunker} degrades).
     */
    static boolean headerEnds(String header, String pending, boolean finished, ChunkLimits limits) {
        int nl = pending.indexOf('\n');
        String first = nl < 0 ? pending : pending.substring(0, nl);
        boolean ended = first.isBlank() ? nl >= 0 || finished && !pending.isEmpty() : first.indexOf('|') < 0;
        boolean tooBig = limits.measure().units(header + first) > limits.maxUnits()
                || limits.maxLines() > 0 && limits.maxLines() < 3;
        return ended || tooBig;
    }
}
