package io.god.command;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.god.node.GodNode;
import io.god.node.Timestamps;
import org.junit.jupiter.api.Test;

/**
 * The rules of the command core live in one place (DESIGN §4): outside {@code io.god.command} no class checks a
 * credential, stamps a write or applies the pause refusal. A front end that did would apply its own copy of a
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
    void onlyTheCommandCoreDecidesWhoACallerIs() {
        noClasses().that().resideOutsideOfPackage("io.god.command..")
                .should().callConstructor(Caller.class, boolean.class, boolean.class, boolean.class)
                .because("a caller's rights come from the credential it presented (Credentials), nowhere else")
                .check(NODE);
    }
}
