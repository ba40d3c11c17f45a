package io.god.operator.fake;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;

/**
 * A standalone fabric8 mock API server (CRUD mode) on loopback for operator processes, that records every call with
 * the time it was answered, the caller's User-Agent and the answer's status code, and answers a
 * SelfSubjectRulesReview from deploy/'s ClusterRole and Roles ({@link Rbac#rulesReview}): the CRUD store would echo
 * the review without a status. Lease updates are checked against their resourceVersion by the CRUD store (409 when
 * stale), which the test using this server checks first.
 */
public final class RecordingApiServer implements AutoCloseable {

    /** One answered request; {@code nanos} is {@link System#nanoTime()} when it was answered. */
    public record Call(long nanos, String agent, String method, String path, int code) {

        public Optional<ApiCall> api() {
            return ApiCall.parse(method, path);
        }

        /** A successful create, update, patch or delete (a review, which changes nothing, is no write). */
        public boolean isWrite() {
            return code < 400 && List.of("POST", "PUT", "PATCH", "DELETE").contains(method)
                    && !api().map(c -> c.resource().startsWith("selfsubject")).orElse(false);
        }

        public boolean isLease() {
            return api().map(c -> c.group().equals("coordination.k8s.io") && c.resource().equals("leases")).orElse(false);
        }
    }

    private final KubernetesMockServer server;
    private final List<Call> calls = new ArrayList<>();

    public RecordingApiServer() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMixedDispatcher crud = new KubernetesMixedDispatcher(responses);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                MockResponse response = answer(request, crud);
                synchronized (calls) {
                    calls.add(new Call(System.nanoTime(), String.valueOf(request.getHeader("User-Agent")),
                            request.getMethod(), request.getPath(), response.code()));
                }
                return response;
            }
        }, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
    }

    private static MockResponse answer(RecordedRequest request, KubernetesMixedDispatcher crud) {
        Optional<ApiCall> call = ApiCall.parse(request.getMethod(), request.getPath());
        if (call.isPresent() && call.get().verb().equals("create")
                && call.get().resource().equals("selfsubjectrulesreviews")) {
            try {
                String namespace = Serialization.jsonMapper().readTree(request.getUtf8Body()).path("spec")
                        .path("namespace").asText();
                return new MockResponse().setResponseCode(201).setHeader("Content-Type", "application/json")
                        .setBody(Serialization.asJson(Rbac.rulesReview(namespace)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return crud.dispatch(request);
    }

    /** {@code http://127.0.0.1:<port>}: what the operator processes are pointed at. */
    public String url() {
        return "http://" + server.getHostName() + ":" + server.getPort();
    }

    public KubernetesMockServer server() {
        return server;
    }

    /** Every call answered so far, in the order answered. */
    public List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    @Override
    public void close() {
        server.destroy();
    }
}
