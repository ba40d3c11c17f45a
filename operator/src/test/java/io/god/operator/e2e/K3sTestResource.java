package io.god.operator.e2e;

import io.fabric8.kubernetes.client.Config;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/** A real API server (k3s in Docker) for the operator running in the test JVM. */
public class K3sTestResource implements QuarkusTestResourceLifecycleManager {

    static final String IMAGE = "rancher/k3s:v1.31.4-k3s1";
    private K3sContainer k3s;

    @Override
    public Map<String, String> start() {
        k3s = new K3sContainer(DockerImageName.parse(IMAGE));
        k3s.start();
        Config config = Config.fromKubeconfig(k3s.getKubeConfigYaml());
        return Map.of(
                "quarkus.kubernetes-client.api-server-url", config.getMasterUrl(),
                "quarkus.kubernetes-client.ca-cert-data", config.getCaCertData(),
                "quarkus.kubernetes-client.client-cert-data", config.getClientCertData(),
                "quarkus.kubernetes-client.client-key-data", config.getClientKeyData(),
                "quarkus.kubernetes-client.namespace", "default");
    }

    @Override
    public void stop() {
        if (k3s != null) {
            k3s.stop();
        }
    }
}
