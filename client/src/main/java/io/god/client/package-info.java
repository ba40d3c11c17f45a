/** Wire types, key hashing, and (later) the binary codec, the Java client and god-cli. */
package io.god.client;
