package io.god.command;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.god.cluster.Cluster;
import io.god.node.GodNode;
import io.god.node.Timestamps;
import io.god.request.Request;
import org.junit.jupiter.api.Test;

/**
 * The rules of the command core live in one place (DESIGN §4): outside {@code io.god.command} no class checks a
 * credential, stamps a write, applies the pause refusal, routes, broadcasts or replicates a command. A front end that did would apply its own copy of a
 * rule — how the JSON contract and the binary data calls came to differ (an oversize key: 400 over one, "not
 * found" over the other; CommandRulesTest).
 */
class ArchitectureTest {

    static final JavaClasses NODE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.god");

    @Test
    void onlyTheCommandCoreStampsWrites() {
        noClasses().that().resideOutsideOfPackage("io.god.command..")
                .should().callMethod(Timestamps.class, "forWrite", long.class, long.class)
                .because("the write stamp of a command is chosen by Admission#stamp alone")
                .check(NODE);
    }

    @Test
    void onlyTheCommandCoreRefusesWritesAfterAPause() {
        noClasses().that().resideOutsideOfPackage("io.god.command..")
                .should().callMethod(GodNode.class, "pauseRefusal", long.class)
                .because("Admission#stamp refuses a client's write handled across a process pause")
                .check(NODE);
    }

    @Test
    void onlyTheCommandCoreChecksCredentials() {
        noClasses().that().resideOutsideOfPackage("io.god.command..")
                .should().dependOnClassesThat().haveFullyQualifiedName(Auth.class.getName())
                .because("Admission applies the credential rule (the admin routes ask it too)")
                .check(NODE);
    }

    @Test
    void onlyTheCommandCoreRoutesAndReplicatesCommands() {
        DescribedPredicate<JavaMethodCall> routing = DescribedPredicate.describe("Cluster.route/forward/broadcast/"
                + "replicate/mergeRead", call -> call.getTargetOwner().isEquivalentTo(Cluster.class)
                && java.util.Set.of("route", "forward", "broadcast", "replicate", "mergeRead").contains(call.getName()));
        noClasses().that().resideOutsideOfPackages("io.god.command..", "io.god.cluster..")
                .should().callMethodWhere(routing)
                .because("Executor and Forwarding route every command to its owner and replicate its writes")
                .check(NODE);
    }

    @Test
    void onlyTheJsonCodecKnowsTheContractsRequestShapes() {
        DescribedPredicate<com.tngtech.archunit.core.domain.JavaClass> mapping = DescribedPredicate.describe(
                "JsonRequests or Wire's own classes", c -> c.getName().equals(JsonRequests.class.getName())
                        || c.getName().equals(Wire.class.getName()) || c.getName().startsWith(Wire.class.getName() + "$"));
        noClasses().that(DescribedPredicate.not(mapping))
                .should().dependOnClassesThat().belongToAnyOf(Wire.Req.class, Wire.ConfReq.class,
                        Wire.SetExpressionReq.class, Wire.SetOpJson.class, Wire.SetOpSourceJson.class)
                .because("every front end and the executor speak Request records; JsonRequests alone maps the JSON "
                        + "contract's request shapes to them and back (forwarding's encoding)")
                .check(NODE);
    }

    @Test
    void ringAndClusterLogicReadsNoWallClock() {
        noClasses().that().resideInAnyPackage("io.god.ring..", "io.god.cluster..")
                .should().callMethod(System.class, "nanoTime").orShould().callMethod(System.class, "currentTimeMillis")
                .because("DESIGN §4: the clock is injected, so the simulation's time is its own (a test thread "
                        + "descheduled under load once made simulated nodes see a pause: BigRingTest, CI)")
                .check(NODE);
    }

    @Test
    void theRingDoesNoIo() {
        noClasses().that().resideInAPackage("io.god.ring..")
                .should().dependOnClassesThat().resideInAPackage("io.god.transport..")
                .because("DESIGN §4: membership is a state machine, messages in and out; the node wires it to the "
                        + "transport (io.god.cluster.MembershipLink), so the same logic runs anywhere and in the simulation")
                .check(NODE);
    }

    @Test
    void onlyTheCommandCoreDecidesWhoACallerIs() {
        noClasses().that().resideOutsideOfPackage("io.god.command..")
                .should().callConstructor(Caller.class, boolean.class, boolean.class, boolean.class)
                .because("a caller's rights come from the credential it presented (Credentials), nowhere else")
                .check(NODE);
    }

    @Test
    void theSharedCommandDefinitionsStandAlone() {
        noClasses().that().resideInAPackage("io.god.request..")
                .should().dependOnClassesThat().resideInAnyPackage("io.god.client..", "io.god.cli..")
                .because("the command table, its records and their binary codecs are the one definition node and "
                        + "client share (client module, io.god.request): the node loads them without the client's "
                        + "connections, routing or CLI")
                .check(NODE);
    }
}
