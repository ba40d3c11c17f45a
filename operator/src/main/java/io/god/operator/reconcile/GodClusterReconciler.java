package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.admin.NodeAdmin;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.GoDuration;
import io.god.operator.model.Member;
import io.god.operator.model.Settings;
import io.god.operator.monitoring.ServiceMonitors;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import io.god.operator.resources.OwnedObjects;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.micrometer.core.instrument.MeterRegistry;
import io.god.operator.model.Operation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs a GodCluster. One step per method, in this order; a step that is not done returns early with a reschedule:
 * pause → validate → owned objects → observe → plan ({@link Planner}: scale, roll) → take the one planned action
 * ({@link ActionRunner}) → status, which records the operation in progress and what the nodes report, with a Warning
 * event for news such as a member's quarantine ({@link StatusNews}) (DESIGN §8). The operator never deletes a volume
 * because a member looks stale: the nodes decide that from their own facts.
 */
@ControllerConfiguration(name = "godcluster")
public class GodClusterReconciler implements Reconciler<GodCluster> {

    /** Counter of member quarantines the nodes reported (tags namespace, cluster). */
    public static final String QUARANTINES = "god.operator.member.quarantines";
    /** Counter of operations that passed spec.operationTimeout without progress (tags namespace, cluster). */
    public static final String DEADLINES = "god.operator.operation.deadline.exceeded";

    private static final int STATUS_WRITE_ATTEMPTS = 3;
    private static final long STATUS_CACHE_POLL_MILLIS = 50;

    private final KubernetesClient client;
    private final NodeAdmin nodeAdmin;
    private final MeterRegistry meters;
    private final String defaultImage;
    private final Duration adminTimeout;
    private final Duration pollInterval;
    private final Duration resyncInterval;
    private final Clock clock;
    private final Silence.Bounds silenceBounds;
    private final io.god.operator.metrics.OperatorMeters metrics;
    private final String operatorNamespace;
    private final Heard heard = new Heard();

    public GodClusterReconciler(KubernetesClient client, NodeAdmin nodeAdmin, MeterRegistry meters, Clock clock,
            @ConfigProperty(name = "god.operator.default-image") String defaultImage,
            @ConfigProperty(name = "god.operator.admin-timeout", defaultValue = "2s") Duration adminTimeout,
            @ConfigProperty(name = "god.operator.poll-interval", defaultValue = "5s") Duration pollInterval,
            @ConfigProperty(name = "god.operator.resync-interval", defaultValue = "60s") Duration resyncInterval,
            @ConfigProperty(name = "god.operator.unanswered-polls", defaultValue = "3") int unansweredPolls,
            @ConfigProperty(name = "god.operator.unanswered-after", defaultValue = "30s") Duration unansweredAfter,
            @ConfigProperty(name = "god.operator.namespace", defaultValue = "god-system") String operatorNamespace) {
        this.client = client;
        this.nodeAdmin = nodeAdmin;
        this.meters = meters;
        this.defaultImage = defaultImage;
        this.adminTimeout = adminTimeout;
        this.pollInterval = pollInterval;
        this.resyncInterval = resyncInterval;
        this.clock = clock;
        this.silenceBounds = new Silence.Bounds(unansweredPolls, unansweredAfter);
        this.metrics = new io.god.operator.metrics.OperatorMeters(meters);
        this.operatorNamespace = operatorNamespace;
    }

    /** Owned objects trigger a reconcile when they change (drift repair); pods are mapped back by label. */
    @Override
    public List<EventSource<?, GodCluster>> prepareEventSources(EventSourceContext<GodCluster> context) {
        return List.of(
                owned(ConfigMap.class, context),
                owned(Service.class, context),
                owned(StatefulSet.class, context),
                owned(PodDisruptionBudget.class, context),
                owned(NetworkPolicy.class, context),
                new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, GodCluster.class)
                        .withLabelSelector(Labels.MANAGED_SELECTOR)
                        .withSecondaryToPrimaryMapper(pod -> {
                            String instance = pod.getMetadata().getLabels().get(Labels.INSTANCE);
                            return instance == null ? Set.of()
                                    : Set.of(new ResourceID(instance, pod.getMetadata().getNamespace()));
                        }).build(), context));
    }

    private static <R extends HasMetadata> InformerEventSource<R, GodCluster> owned(Class<R> type,
            EventSourceContext<GodCluster> context) {
        return new InformerEventSource<>(InformerEventSourceConfiguration.from(type, GodCluster.class)
                .withLabelSelector(Labels.MANAGED_SELECTOR)
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(GodCluster.class))
                .build(), context);
    }

    @Override
    public UpdateControl<GodCluster> reconcile(GodCluster cluster, Context<GodCluster> context) {
        long t0 = System.nanoTime();
        try {
            return reconcileOnce(cluster, context);
        } finally {
            metrics.reconciled(System.nanoTime() - t0);
        }
    }

    private UpdateControl<GodCluster> reconcileOnce(GodCluster cluster, Context<GodCluster> context) {
        meters.counter("god.operator.reconciles", "result", "started").increment();
        Settings settings = Settings.of(cluster.getSpec(), defaultImage);
        Instant now = clock.instant();
        StatusWriter status = new StatusWriter(cluster, now, heard.view());
        if (paused(cluster, settings)) {
            return reportPaused(cluster, context, status);
        }
        List<String> problems = validate(cluster, settings);
        if (!problems.isEmpty()) {
            return rejectInvalid(cluster, context, status, problems);
        }
        ClusterSecrets.Loaded secrets = loadSecrets(cluster);
        if (!secrets.problems().isEmpty()) {
            return reject(cluster, context, status.secretsUnavailable(secrets.problems()), StatusWriter.REASON_SECRETS,
                    secrets.problems());
        }
        NodeAdmin nodeAdmin = this.nodeAdmin.withToken(secrets.adminToken());
        Observer observer = new Observer(client, nodeAdmin, adminTimeout);
        // until the status records N, what the members run is read before anything is applied (an edited template
        // must not reach a restarting pod); the main observation below reuses those answers
        Observation early = FixedRedundancy.recorded(cluster) == null ? observer.observe(cluster) : null;
        List<String> redundancy = checkRunningRedundancy(cluster, settings, early);
        if (!redundancy.isEmpty()) {
            return rejectInvalid(cluster, context, status, redundancy);
        }
        List<String> conflicts = applyOwnedObjects(cluster, settings,
                new DesiredObjects.Secured(secrets.hash(), operatorNamespace));
        if (!conflicts.isEmpty()) {
            return reject(cluster, context, status.blocked(conflicts), StatusWriter.REASON_CONFLICT, conflicts);
        }
        ServiceMonitors.Verdict monitoring = applyMonitoring(cluster);
        Observation observation = observer.observe(cluster, early);
        heard.record(observation, now);
        List<Member> members = cluster.getStatus() == null ? List.of() : cluster.getStatus().getMembers();
        Map<Integer, String> positions = new HashMap<>();
        Optional.ofNullable(members).orElse(List.of()).stream().filter(m -> m.getPosition() != null)
                .forEach(m -> positions.put(m.getOrdinal(), m.getPosition()));
        Plan plan = Planner.plan(new Planner.Input(settings.replicas(), settings.redundancy(),
                settings.deleteClaimOnScaleDown(), cluster.getMetadata().getName(), observation, operation(cluster),
                now, Silence.update(members, observation, now, heard.view()), silenceBounds, positions,
                requests(cluster),
                GoDuration.parse(settings.operationTimeout()), waiting(cluster)));
        GodClusterStatus before = cluster.getStatus(); // news and metrics compare with this, not with the intent
        recordIntent(cluster, context, status, plan);
        plan = new ActionRunner(client, nodeAdmin, adminTimeout, events()).run(cluster, plan);
        if (plan.alert() != null) {
            events().record(cluster, plan.alert().type(), plan.alert().reason(), plan.alert().message());
            if (Deadline.REASON.equals(plan.alert().reason())) {
                meters.counter(DEADLINES, "namespace", cluster.getMetadata().getNamespace(),
                        "cluster", cluster.getMetadata().getName()).increment();
            }
        }
        GodClusterStatus next = status.observed(settings, observation, plan, monitoring);
        announce(cluster, before, next);
        return reportStatus(cluster, context, next, plan);
    }

    /**
     * Writes the plan's operation into the status before its action is taken, whenever the action changes something
     * and the recorded operation is not already the plan's. A crash or a failed status write after the action then
     * leaves the step in the status: the next pass continues it (a member that is LEAVING is not forgotten, a shrink
     * knows the drain was confirmed, a claim deletion or replacement is not lost with its request annotation).
     * {@code cluster} takes the written status and resourceVersion, so the final write of this pass follows it.
     */
    private void recordIntent(GodCluster cluster, Context<GodCluster> context, StatusWriter status, Plan plan) {
        if (plan.action() instanceof Action.None || Objects.equals(plan.operation(), operation(cluster))) {
            return;
        }
        GodClusterStatus intent = status.intent(plan.operation());
        GodCluster written = writeStatus(cluster, context, intent);
        cluster.getMetadata().setResourceVersion(written.getMetadata().getResourceVersion());
        cluster.setStatus(written.getStatus());
    }

    /** Warning events for what the nodes decided (quarantine, STALE) and for reduced redundancy; counts quarantines. */
    private void announce(GodCluster cluster, GodClusterStatus before, GodClusterStatus next) {
        metrics.operations(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), before, next);
        int quarantines = StatusNews.quarantined(before, next).size();
        if (quarantines > 0) {
            meters.counter(QUARANTINES, "namespace", cluster.getMetadata().getNamespace(),
                    "cluster", cluster.getMetadata().getName()).increment(quarantines);
        }
        for (Plan.Event e : StatusNews.events(before, next)) {
            events().record(cluster, e.type(), e.reason(), e.message());
        }
    }

    /** spec.paused, or the annotation god.io/paused=true (which works without editing the spec, e.g. in GitOps). */
    static boolean paused(GodCluster cluster, Settings settings) {
        var annotations = cluster.getMetadata().getAnnotations();
        return settings.paused()
                || (annotations != null && "true".equalsIgnoreCase(annotations.get(StatusWriter.PAUSED_ANNOTATION)));
    }

    /** The explicit requests a user makes with annotations (replace a member, confirm, force-delete a stuck pod). */
    private static Planner.Requests requests(GodCluster cluster) {
        Map<String, String> a = Optional.ofNullable(cluster.getMetadata().getAnnotations()).orElse(Map.of());
        return new Planner.Requests(a.get(Planner.REPLACE_ANNOTATION), a.get(Planner.CONFIRM_DATA_LOSS_ANNOTATION),
                a.get(Planner.FORCE_DELETE_ANNOTATION));
    }

    private static Operation operation(GodCluster cluster) {
        return cluster.getStatus() == null ? null : cluster.getStatus().getOperation();
    }

    private static io.god.operator.model.Wait waiting(GodCluster cluster) {
        return cluster.getStatus() == null ? null : cluster.getStatus().getWaiting();
    }

    private UpdateControl<GodCluster> reportPaused(GodCluster cluster, Context<GodCluster> context, StatusWriter status) {
        if (!StatusWriter.PHASE_PAUSED.equals(phaseOf(cluster))) {
            events().record(cluster, EventRecorder.NORMAL, "ReconciliationPaused",
                    "paused (spec.paused or annotation " + StatusWriter.PAUSED_ANNOTATION + "): no changes until resumed");
        }
        writeStatus(cluster, context, status.paused());
        return UpdateControl.<GodCluster>noUpdate().rescheduleAfter(resyncInterval);
    }

    /** No reschedule: the next spec change triggers the next reconcile. */
    private UpdateControl<GodCluster> rejectInvalid(GodCluster cluster, Context<GodCluster> context, StatusWriter status,
            List<String> problems) {
        String message = String.join("; ", problems);
        if (!StatusWriter.PHASE_INVALID.equals(phaseOf(cluster)) || !Objects.equals(degradedMessage(cluster), message)) {
            events().record(cluster, EventRecorder.WARNING, "InvalidSpec", message);
        }
        meters.counter("god.operator.reconciles", "result", "invalid").increment();
        writeStatus(cluster, context, status.invalid(problems));
        return UpdateControl.noUpdate();
    }

    /**
     * Before anything is applied, while the status has no N yet (an older operator's cluster, or a first pass that
     * failed before its status write): spec.redundancy against the N the running members report, else the N their
     * template gives them ({@link FixedRedundancy}); the objects would otherwise take the new N at once.
     */
    private List<String> checkRunningRedundancy(GodCluster cluster, Settings settings, Observation seen) {
        if (seen == null) {
            return List.of();
        }
        StatefulSet sts = client.apps().statefulSets().inNamespace(cluster.getMetadata().getNamespace())
                .withName(Labels.statefulSet(cluster)).get();
        return new FixedRedundancy(client).problems(cluster, settings, seen, sts);
    }

    /**
     * Blocked: an object with one of our names belongs to someone else (never adopted), or a Secret the members need
     * is missing or incomplete; nothing is planned while the operator cannot make what the ring needs. Rechecked every
     * resync (deleting the other object or creating the Secret fires no event here).
     */
    private UpdateControl<GodCluster> reject(GodCluster cluster, Context<GodCluster> context,
            GodClusterStatus blocked, String reason, List<String> problems) {
        String message = String.join("; ", problems);
        if (!StatusWriter.PHASE_BLOCKED.equals(phaseOf(cluster)) || !Objects.equals(degradedMessage(cluster), message)) {
            events().record(cluster, EventRecorder.WARNING, reason, message);
        }
        meters.counter("god.operator.reconciles", "result", "conflict").increment();
        writeStatus(cluster, context, blocked);
        return UpdateControl.<GodCluster>noUpdate().rescheduleAfter(resyncInterval);
    }

    /** The Secrets the members mount, made where the operator generates them (an event names each new one). */
    private ClusterSecrets.Loaded loadSecrets(GodCluster cluster) {
        ClusterSecrets.Loaded loaded = new ClusterSecrets(client).load(cluster);
        for (String name : loaded.created()) {
            events().record(cluster, EventRecorder.NORMAL, "SecretGenerated", "created Secret " + name
                    + " with a random token (owned by this GodCluster)");
        }
        return loaded;
    }

    /**
     * The spec on its own, then against the StatefulSet: its volume claim templates cannot change. The CRD's CEL
     * rules reject such edits, but not when the storage block was added after creation, nor on a server without CEL.
     */
    private List<String> validate(GodCluster cluster, Settings settings) {
        List<String> problems = new java.util.ArrayList<>(SpecValidator.problems(cluster.getSpec(), settings));
        SpecValidator.checkName(cluster.getMetadata().getName(), problems);
        SpecValidator.checkRedundancy(settings, FixedRedundancy.recorded(cluster), problems);
        StatefulSet sts = client.apps().statefulSets().inNamespace(cluster.getMetadata().getNamespace())
                .withName(Labels.statefulSet(cluster)).get();
        if (sts != null && problems.stream().noneMatch(p -> p.startsWith("spec.storage"))) {
            problems.addAll(SpecValidator.storageChanges(settings, sts));
        }
        return problems;
    }

    /** @return the objects of our names that another owner has (left alone; nothing else happens in this pass) */
    private List<String> applyOwnedObjects(GodCluster cluster, Settings settings, DesiredObjects.Secured secured) {
        OwnedObjects.Result result = new OwnedObjects(client).apply(cluster, new DesiredObjects(cluster, settings,
                secured));
        List<String> changes = result.changes();
        boolean created = phaseOf(cluster) == null;
        // the spec is the one already acted on: a difference is someone else's edit (drift), not a spec change
        boolean specUnchanged = cluster.getStatus() != null
                && Objects.equals(cluster.getStatus().getObservedGeneration(), cluster.getMetadata().getGeneration());
        for (String change : changes) {
            if (!created || !change.startsWith("created")) { // a new cluster's objects are no news
                events().record(cluster, EventRecorder.NORMAL,
                        specUnchanged ? "OwnedObjectRepaired" : "OwnedObjectUpdated", change);
            }
        }
        return result.conflicts();
    }

    /**
     * The ServiceMonitor or PodMonitor (spec.monitoring): a Warning event when it is asked for but its CRD is missing (once, when
     * the condition turns False), a Normal event when it changes (not for a new cluster's first one).
     */
    private ServiceMonitors.Verdict applyMonitoring(GodCluster cluster) {
        var previous = Conditions.find(cluster.getStatus() == null ? null : cluster.getStatus().getConditions(),
                Conditions.MONITORING);
        String made = previous.filter(c -> Conditions.TRUE.equals(c.getStatus()))
                .map(c -> ServiceMonitors.madeBy(c.getReason())).orElse(null);
        ServiceMonitors.Verdict verdict = new ServiceMonitors(client).apply(cluster, made);
        if (Conditions.FALSE.equals(verdict.status())
                && !previous.map(c -> Conditions.FALSE.equals(c.getStatus())
                        && verdict.reason().equals(c.getReason())).orElse(false)) {
            events().record(cluster, EventRecorder.WARNING, "MonitoringUnavailable", verdict.message());
        }
        if (verdict.change() != null && !(phaseOf(cluster) == null && verdict.change().startsWith("created"))) {
            events().record(cluster, EventRecorder.NORMAL, "MonitoringUpdated", verdict.change());
        }
        return verdict;
    }

    private UpdateControl<GodCluster> reportStatus(GodCluster cluster, Context<GodCluster> context,
            GodClusterStatus next, Plan plan) {
        boolean settled = (plan.progress() == Progress.STEADY
                && Conditions.isTrue(next.getConditions(), Conditions.READY))
                || plan.progress() == Progress.HIBERNATED || plan.progress() == Progress.SCALE_DOWN_REFUSED;
        meters.counter("god.operator.reconciles", "result", settled ? "settled" : "progressing").increment();
        writeStatus(cluster, context, next);
        return UpdateControl.<GodCluster>noUpdate().rescheduleAfter(settled ? resyncInterval : pollInterval);
    }

    /** Also counts failures; the status says what went wrong, and JOSDK retries with back-off. */
    @Override
    public ErrorStatusUpdateControl<GodCluster> updateErrorStatus(GodCluster cluster, Context<GodCluster> context,
            Exception e) {
        meters.counter("god.operator.reconciles", "result", "error").increment();
        // from the API server's copy: the copy JOSDK hands in predates this pass, and writing a status based on it
        // would erase an operation recorded (intent before action) earlier in the failed pass
        GodCluster fresh = client.resources(GodCluster.class).inNamespace(cluster.getMetadata().getNamespace())
                .withName(cluster.getMetadata().getName()).get();
        if (fresh != null) {
            writeStatus(fresh, context, new StatusWriter(fresh, Instant.now()).failed(e));
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /**
     * Replaces the status (PUT on /status with the resourceVersion the reconcile started from, retried on conflict)
     * and puts the result into JOSDK's cache, so the next reconcile starts from this status rather than an older copy.
     * A patch computed against a stale cached copy could otherwise address list entries that no longer exist.
     */
    private GodCluster writeStatus(GodCluster cluster, Context<GodCluster> context, GodClusterStatus next) {
        if (next.equals(cluster.getStatus())) {
            return cluster;
        }
        // a few conflict retries, each waiting at most one poll interval for the cache: a failing API server (5xx)
        // fails the pass quickly, and JOSDK's retry (unlimited, capped back-off) runs it again
        return PrimaryUpdateAndCacheUtils.updateAndCacheResource(cluster, context, fresh -> {
            fresh.setStatus(next);
            return fresh;
        }, r -> context.getClient().resource(r).updateStatus(), STATUS_WRITE_ATTEMPTS, pollInterval.toMillis(),
                STATUS_CACHE_POLL_MILLIS);
    }

    private EventRecorder events() {
        return new EventRecorder(client);
    }

    private static String phaseOf(GodCluster cluster) {
        return cluster.getStatus() == null ? null : cluster.getStatus().getPhase();
    }

    private static String degradedMessage(GodCluster cluster) {
        return cluster.getStatus() == null ? null
                : Conditions.find(cluster.getStatus().getConditions(), Conditions.DEGRADED)
                        .map(c -> c.getMessage()).orElse(null);
    }
}
