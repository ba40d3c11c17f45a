package io.god.cluster;

import io.god.ring.Member;
import io.god.ring.Membership;
import io.god.ring.Outbound;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Wires the I/O-free {@link Membership} to the {@link Transport} (DESIGN §4): sends every message it hands
 * out with its deadline and reports each call's outcome back to it — the reply, or the failure as a
 * {@link Outbound.NoAnswer} — sending whatever it returns in turn. Every message gets exactly one outcome:
 * the transport fails a call whose deadline passed, and a call that throws counts as unanswered.
 */
public final class MembershipLink {

    private static final System.Logger LOG = System.getLogger(MembershipLink.class.getName());

    private final Membership membership;
    private final Transport transport;
    private final Duration deadline;

    public MembershipLink(Membership membership, Transport transport) {
        this.membership = membership;
        this.transport = transport;
        this.deadline = membership.deadline();
    }

    public Membership membership() {
        return membership;
    }

    /** One membership round ({@link Membership#tick()}), its messages sent. */
    public void tick() {
        send(membership.tick());
    }

    /**
     * Leaves the ring ({@link Membership#leave()}) and waits until every member told confirmed or did not
     * (each call within its deadline). Returns the members told.
     */
    public List<Member> leave() {
        Membership.Leaving leaving = membership.leave();
        List<CompletableFuture<Void>> calls = send(leaving.messages());
        for (int i = 0; i < calls.size(); i++) {
            try {
                calls.get(i).get(deadline.toNanos() * 2, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) { // the transport missed its own deadline: do not wait on
                LOG.log(System.Logger.Level.INFO, leaving.messages().get(i).to()
                        + " did not confirm the leave in time (failure detection will drop this node): " + e);
            }
        }
        return leaving.members();
    }

    /**
     * Removes an absent member on request ({@link Membership#remove}) and tells the members of the view
     * (without waiting). Returns the removed entry, or null when no expected member has that name.
     */
    public Member remove(String addressOrPosition) {
        Membership.Removal removal = membership.remove(addressOrPosition);
        send(removal.messages());
        return removal.member();
    }

    /** Sends each message; completes each future once its outcome (and its follow-ups' sending) was handled. */
    private List<CompletableFuture<Void>> send(List<Outbound> messages) {
        List<CompletableFuture<Void>> done = new ArrayList<>(messages.size());
        for (Outbound m : messages) {
            done.add(send(m));
        }
        return done;
    }

    private CompletableFuture<Void> send(Outbound m) {
        CompletableFuture<byte[]> call;
        try {
            call = transport.call(m.to(), m.op(), m.payload(), deadline);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        return call.handle((reply, error) -> {
            List<Outbound> next;
            if (error == null) {
                next = membership.answered(m, reply);
            } else {
                TransportException te = TransportException.of(error);
                next = membership.unanswered(m, new Outbound.NoAnswer(
                        te.reason() == TransportException.Reason.REMOTE, te.getMessage()));
            }
            send(next);
            return null;
        });
    }
}
