package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The last replace request the operator accepted: which ordinal, which pod it replaced, when. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Replacement {

    private Integer ordinal;

    @JsonPropertyDescription("UID of the pod that was replaced (deleted with its PVC).")
    private String podUid;

    @JsonPropertyDescription("When (RFC 3339) the request was accepted and the annotation cleared.")
    private String acceptedAt;

    public Replacement() {
    }

    public Replacement(Integer ordinal, String podUid, String acceptedAt) {
        this.ordinal = ordinal;
        this.podUid = podUid;
        this.acceptedAt = acceptedAt;
    }

    public Integer getOrdinal() { return ordinal; }
    public void setOrdinal(Integer ordinal) { this.ordinal = ordinal; }
    public String getPodUid() { return podUid; }
    public void setPodUid(String podUid) { this.podUid = podUid; }
    public String getAcceptedAt() { return acceptedAt; }
    public void setAcceptedAt(String acceptedAt) { this.acceptedAt = acceptedAt; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Replacement r && Objects.equals(ordinal, r.ordinal) && Objects.equals(podUid, r.podUid)
                && Objects.equals(acceptedAt, r.acceptedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ordinal, podUid);
    }
}
