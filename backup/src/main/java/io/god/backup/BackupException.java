package io.god.backup;

/** A backup, verify or restore that cannot go on, with the reason (the CLI prints it, exit 1). */
public final class BackupException extends RuntimeException {

    public BackupException(String message) {
        super(message);
    }

    public BackupException(String message, Throwable cause) {
        super(message, cause);
    }
}
