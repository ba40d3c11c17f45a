package io.god.request;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The typed answers of the commands, shared by the node (which returns them from its executor and writes them as
 * the JSON contract's answers, Go field names and all) and the client ({@link BinaryResults} decodes them from a
 * binary command's reply): one definition, so both ends agree on every field.
 */
public final class Result {

    private Result() {
    }

    @JsonPropertyOrder({"Key", "Value", "Exists"})
    public record ValueRes(@JsonProperty("Key") byte[] key, @JsonProperty("Value") byte[] value,
                           @JsonProperty("Exists") boolean exists) {
    }

    @JsonPropertyOrder({"Key", "SubKey", "Value", "Exists"})
    public record SubValueRes(@JsonProperty("Key") byte[] key, @JsonProperty("SubKey") byte[] subKey,
                              @JsonProperty("Value") byte[] value, @JsonProperty("Exists") boolean exists) {
    }

    @JsonPropertyOrder({"Key", "SubKey", "Value", "Index", "Exists"})
    public record SubValueIndexRes(@JsonProperty("Key") byte[] key, @JsonProperty("SubKey") byte[] subKey,
                                   @JsonProperty("Value") byte[] value, @JsonProperty("Index") long index,
                                   @JsonProperty("Exists") boolean exists) {
    }

    @JsonPropertyOrder({"N", "Existed"})
    public record IndexRes(@JsonProperty("N") long n, @JsonProperty("Existed") boolean existed) {
    }

    /** SubUpdate's answer: a number and values (null: a nil answer), as the node's SubUpdates says. */
    @JsonPropertyOrder({"N", "Values"})
    public record UpdateRes(@JsonProperty("N") long n, @JsonProperty("Values") List<byte[]> values) {
    }

    @JsonPropertyOrder({"Key", "Values"})
    public record SetOpResult(@JsonProperty("Key") byte[] key, @JsonProperty("Values") List<byte[]> values) {
    }

    @JsonPropertyOrder({"TreeKey", "Data", "Timestamp"})
    public record Conf(@JsonProperty("TreeKey") byte[] treeKey, @JsonProperty("Data") Map<String, String> data,
                       @JsonProperty("Timestamp") long timestamp) {
    }

    /**
     * A ring member. {@code State} is a god extension, present only for a member known to be
     * {@code CATCHING_UP} (clients do not send it reads); absent otherwise, so the answer stays the
     * reference's byte for byte.
     */
    @JsonPropertyOrder({"Pos", "Addr", "State"})
    public record Remote(@JsonProperty("Pos") byte[] pos, @JsonProperty("Addr") String addr,
                         @JsonProperty("State") @JsonInclude(JsonInclude.Include.NON_NULL) String state) {
        /** The State of an expected member absent from the view (listed only when a Nodes call asks, {@code Expected}). */
        public static final String ABSENT = "ABSENT";

        public Remote(byte[] pos, String addr) {
            this(pos, addr, null);
        }
    }

    @JsonPropertyOrder({"Addr", "Pos", "LastReroute", "LastSync", "LastMigrate", "Timer", "OwnedEntries",
            "HeldEntries", "Load", "Nodes"})
    public record Description(@JsonProperty("Addr") String addr, @JsonProperty("Pos") byte[] pos,
                              @JsonProperty("LastReroute") String lastReroute,
                              @JsonProperty("LastSync") String lastSync,
                              @JsonProperty("LastMigrate") String lastMigrate,
                              @JsonProperty("Timer") String timer,
                              @JsonProperty("OwnedEntries") long ownedEntries,
                              @JsonProperty("HeldEntries") long heldEntries,
                              @JsonProperty("Load") double load,
                              @JsonProperty("Nodes") List<Remote> nodes) {
    }
}
