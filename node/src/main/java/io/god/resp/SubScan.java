package io.god.resp;

import io.god.command.SubUpdates.Kind;
import io.god.command.Wire;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * HSCAN and ZSCAN: {@code key cursor [MATCH p] [COUNT n]} over the key's (plain) sub tree, so fields or members in
 * byte order after the cursor's, COUNT (at most {@link RespCommands#SCAN_MAX}) examined per call; cursors are
 * {@link ScanCursors}. Byte order, not score order, for ZSCAN too: a member whose score changes during the scan is
 * still returned once. Checked in Redis' order: the cursor, the key's type, then (for a key that exists) the options.
 */
final class SubScan {

    private SubScan() {
    }

    /** One call: pairs of sub key and {@code value} applied to its stored value. */
    @SuppressWarnings("unchecked")
    static void scan(RespCommands core, RespSession s, List<byte[]> a, RespWriter w, Kind kind,
            UnaryOperator<byte[]> value) {
        byte[] key = a.get(1);
        byte[] after = core.cursors.find(RespCommands.text(a.get(2)));
        core.expect(s, key, kind);
        ScanOptions o;
        try {
            o = ScanOptions.parse(a, 3, false);
        } catch (IllegalArgumentException e) {
            if (core.subSize(s, key) > 0) {
                throw e;
            }
            w.array(2).bulk("0").bulks(List.of()); // Redis answers an absent key before it reads the options
            return;
        }
        Request.SliceLen q = new Request.SliceLen(Command.SLICE_LEN, key, after.length == 0 ? null : after, false,
                Math.min(o.count(), RespCommands.SCAN_MAX), false);
        List<Result.ValueRes> page = (List<Result.ValueRes>) core.call(s, q);
        List<byte[]> out = new ArrayList<>();
        for (Result.ValueRes v : page) {
            if (o.matches(v.key())) {
                out.add(v.key());
                out.add(value.apply(v.value()));
            }
        }
        boolean end = page.size() < q.len();
        w.array(2).bulk(end ? "0" : core.cursors.save(page.get(page.size() - 1).key())).bulks(out);
    }
}
