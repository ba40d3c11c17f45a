package io.god.persist;

import java.util.List;

/**
 * Recovery found damage that a crash cannot explain and the policy does not allow starting with it.
 * Nothing in the data directory was changed.
 */
public final class DataCorruptionException extends PersistenceException {

    private final transient List<Damage> damage;

    public DataCorruptionException(String message, List<Damage> damage) {
        super(message);
        this.damage = List.copyOf(damage);
    }

    public List<Damage> damage() {
        return damage;
    }
}
