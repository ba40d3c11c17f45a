package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One ordinal of the ring as the operator last saw it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Member {

    private Integer ordinal;
    private String pod;

    @JsonPropertyDescription("Ring position reported by the node (hex).")
    private String position;

    @JsonPropertyDescription("JOINING, ACTIVE, LEAVING, LEFT from /admin/status; Absent, Pending or Unreachable otherwise.")
    private String state;

    private Boolean ready;

    @JsonPropertyDescription("Last time (RFC 3339) the node reported itself a ring member.")
    private String lastSeenInRing;

    public Member() {
    }

    public Member(int ordinal, String pod) {
        this.ordinal = ordinal;
        this.pod = pod;
    }

    public Integer getOrdinal() { return ordinal; }
    public void setOrdinal(Integer ordinal) { this.ordinal = ordinal; }
    public String getPod() { return pod; }
    public void setPod(String pod) { this.pod = pod; }
    public String getPosition() { return position; }
    public void setPosition(String position) { this.position = position; }
    public String getState() { return state; }
    public void setState(String state) { this.state = state; }
    public Boolean getReady() { return ready; }
    public void setReady(Boolean ready) { this.ready = ready; }
    public String getLastSeenInRing() { return lastSeenInRing; }
    public void setLastSeenInRing(String lastSeenInRing) { this.lastSeenInRing = lastSeenInRing; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Member m && Objects.equals(ordinal, m.ordinal) && Objects.equals(pod, m.pod)
                && Objects.equals(position, m.position) && Objects.equals(state, m.state)
                && Objects.equals(ready, m.ready) && Objects.equals(lastSeenInRing, m.lastSeenInRing);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ordinal, pod, state);
    }
}
