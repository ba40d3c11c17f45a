package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/** Settings of the client Service. */
public class ServiceSettings {

    @Pattern("^(ClusterIP|NodePort|LoadBalancer)$")
    @Default("ClusterIP")
    @JsonPropertyDescription("Service type of the client Service: ClusterIP, NodePort or LoadBalancer.")
    private String type;

    public String getType() { return type; }
    public void setType(String type) { this.type = type; }
}
