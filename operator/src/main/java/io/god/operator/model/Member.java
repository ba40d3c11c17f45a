package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One ordinal of the ring as the operator last saw it, with the facts its node last reported. */
// a status written by another operator version (e.g. the removed lastSeenInRing) must still read
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Member {

    private Integer ordinal;
    private String pod;

    @JsonPropertyDescription("Ring position reported by the node (hex).")
    private String position;

    @JsonPropertyDescription("The state the node reports on /admin/status, as it says it (JOINING, CATCHING_UP, ACTIVE,"
            + " LEAVING, LEFT, STALE, ...); Absent, Pending, Terminating or Unreachable when it does not answer.")
    private String state;

    private Boolean ready;

    @JsonPropertyDescription("As the node last reported it: the last time (RFC 3339) it was in sync with the ring,"
            + " persisted in its data directory. The node, not the operator, decides from it whether its data is stale.")
    private String lastAliveAt;

    @JsonPropertyDescription("As the node last reported it: when (RFC 3339) it last moved its data to quarantine as"
            + " stale and rejoined empty.")
    private String quarantinedAt;

    @JsonPropertyDescription("Consecutive reconcile passes without an answer to /admin/status (absent when it answered).")
    private Integer missedPolls;

    @JsonPropertyDescription("Since when (RFC 3339) the member has not answered /admin/status.")
    private String unansweredSince;

    @JsonPropertyDescription("The uid of the member's pod when this status was written (a new pod starts a new"
            + " silence count).")
    private String podUid;

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
    public String getLastAliveAt() { return lastAliveAt; }
    public void setLastAliveAt(String lastAliveAt) { this.lastAliveAt = lastAliveAt; }
    public String getQuarantinedAt() { return quarantinedAt; }
    public void setQuarantinedAt(String quarantinedAt) { this.quarantinedAt = quarantinedAt; }
    public String getPodUid() { return podUid; }
    public void setPodUid(String podUid) { this.podUid = podUid; }
    public Integer getMissedPolls() { return missedPolls; }
    public void setMissedPolls(Integer missedPolls) { this.missedPolls = missedPolls; }
    public String getUnansweredSince() { return unansweredSince; }
    public void setUnansweredSince(String unansweredSince) { this.unansweredSince = unansweredSince; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Member m && Objects.equals(ordinal, m.ordinal) && Objects.equals(pod, m.pod)
                && Objects.equals(position, m.position) && Objects.equals(state, m.state)
                && Objects.equals(ready, m.ready) && Objects.equals(lastAliveAt, m.lastAliveAt)
                && Objects.equals(quarantinedAt, m.quarantinedAt) && Objects.equals(missedPolls, m.missedPolls)
                && Objects.equals(unansweredSince, m.unansweredSince);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ordinal, pod, state);
    }
}
