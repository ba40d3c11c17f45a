package io.god.operator.fake;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The RBAC check is only as good as this mapping from requests to verbs and resources. */
class ApiCallTest {

    @Test
    void mapsRequestsToRbacVerbsAndResources() {
        assertThat(ApiCall.parse("GET", "/api/v1/namespaces/a/pods?labelSelector=x")).hasValueSatisfying(c -> {
            assertThat(c.verb()).isEqualTo("list");
            assertThat(c.group()).isEmpty();
            assertThat(c.resource()).isEqualTo("pods");
        });
        assertThat(ApiCall.parse("GET", "/api/v1/pods?allowWatchBookmarks=true&watch=true")).get()
                .extracting(ApiCall::verb).isEqualTo("watch");
        assertThat(ApiCall.parse("GET", "/apis/apps/v1/namespaces/a/statefulsets/demo")).hasValueSatisfying(c -> {
            assertThat(c.verb()).isEqualTo("get");
            assertThat(c.group()).isEqualTo("apps");
            assertThat(c.resource()).isEqualTo("statefulsets");
        });
        assertThat(ApiCall.parse("PATCH", "/apis/god.io/v1alpha1/namespaces/a/godclusters/demo/status"))
                .hasValueSatisfying(c -> {
                    assertThat(c.verb()).isEqualTo("patch");
                    assertThat(c.resource()).isEqualTo("godclusters/status");
                });
        assertThat(ApiCall.parse("POST", "/api/v1/namespaces/a/events")).get().extracting(ApiCall::verb)
                .isEqualTo("create");
        assertThat(ApiCall.parse("PUT", "/api/v1/namespaces/a/configmaps/c")).get().extracting(ApiCall::verb)
                .isEqualTo("update");
        assertThat(ApiCall.parse("DELETE", "/apis/policy/v1/namespaces/a/poddisruptionbudgets/p")).get()
                .extracting(ApiCall::verb).isEqualTo("delete");
        assertThat(ApiCall.parse("DELETE", "/api/v1/namespaces/a/pods")).get().extracting(ApiCall::verb)
                .isEqualTo("deletecollection");
        assertThat(ApiCall.parse("GET", "/version")).isEmpty();
        assertThat(ApiCall.parse("GET", "/apis")).isEmpty();
    }

    @Test
    void resourceNamesRulesAllowOnlyTheirObject() throws Exception {
        ApiCall crd = ApiCall.parse("GET",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/servicemonitors.monitoring.coreos.com").get();
        assertThat(crd.name()).isEqualTo("servicemonitors.monitoring.coreos.com");
        assertThat(Rbac.allows(crd)).isTrue();
        assertThat(Rbac.allows(ApiCall.parse("GET",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/godclusters.god.io").get())).isFalse();
        assertThat(Rbac.allows(ApiCall.parse("GET",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions").get())).isFalse();
        assertThat(ApiCall.parse("GET", "/api/v1/namespaces/a/pods?watch=true").get().name()).isEmpty();
    }

    @Test
    void theLeaseIsAllowedOnlyInTheOperatorNamespaceAndSelfReviewsAlways() throws Exception {
        ApiCall renew = ApiCall.parse("PATCH", "/apis/coordination.k8s.io/v1/namespaces/god-system/leases/god-operator").get();
        assertThat(renew.namespace()).isEqualTo("god-system");
        assertThat(Rbac.allows(renew)).isTrue();
        assertThat(Rbac.allows(ApiCall.parse("PATCH", "/apis/coordination.k8s.io/v1/namespaces/a/leases/god-operator").get()))
                .isFalse();
        assertThat(Rbac.allows(ApiCall.parse("DELETE",
                "/apis/coordination.k8s.io/v1/namespaces/god-system/leases/god-operator").get())).isFalse();
        assertThat(Rbac.allows(ApiCall.parse("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews").get())).isTrue();
        assertThat(ApiCall.parse("GET", "/api/v1/pods?watch=true").get().namespace()).isEmpty();
        assertThat(Rbac.rulesReview("god-system").getStatus().getResourceRules())
                .anySatisfy(r -> assertThat(r.getResources()).contains("leases"));
        assertThat(Rbac.rulesReview("a").getStatus().getResourceRules())
                .noneSatisfy(r -> assertThat(r.getResources()).contains("leases"));
    }
}
