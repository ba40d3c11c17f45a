package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/** Write-ahead log and snapshot settings, passed to the nodes as GOD_PERSISTENCE_* variables. */
public class PersistenceSpec {

    @Pattern("^(always|everysec|no)$")
    @Default("everysec")
    @JsonPropertyDescription("fsync policy of the write-ahead log: always, everysec or no.")
    private String fsync;

    @Min(1)
    @JsonPropertyDescription("Write-ahead log size (bytes) after which a snapshot is taken; the node's default when empty.")
    private Long snapshotThreshold;

    public String getFsync() { return fsync; }
    public void setFsync(String fsync) { this.fsync = fsync; }
    public Long getSnapshotThreshold() { return snapshotThreshold; }
    public void setSnapshotThreshold(Long snapshotThreshold) { this.snapshotThreshold = snapshotThreshold; }
}
