package io.god.operator.model;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A god ring run by the operator as one StatefulSet (DESIGN §8). */
@Group("god.io")
@Version("v1alpha1")
@ShortNames("god")
@AdditionalPrinterColumn(name = "Desired", jsonPath = ".spec.replicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.readyReplicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(value = "!self.metadata.name.endsWith('-peers')", message = "metadata.name must not end in -peers"
        + " (another cluster's headless Service has such a name)")
public class GodCluster extends CustomResource<GodClusterSpec, GodClusterStatus> implements Namespaced {

    @Override
    protected GodClusterSpec initSpec() {
        return new GodClusterSpec();
    }
}
