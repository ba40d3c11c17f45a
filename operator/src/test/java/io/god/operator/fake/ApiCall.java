package io.god.operator.fake;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One Kubernetes API request as RBAC sees it: verb, API group, resource (with subresource), e.g. patch god.io godclusters/status. */
public record ApiCall(String verb, String group, String resource, String path) {

    private static final Pattern CORE = Pattern.compile("^/api/v1(?:/namespaces/[^/]+)?/([^/]+)(?:/([^/]+))?(?:/([^/]+))?$");
    private static final Pattern NAMED_GROUP =
            Pattern.compile("^/apis/([^/]+)/[^/]+(?:/namespaces/[^/]+)?/([^/]+)(?:/([^/]+))?(?:/([^/]+))?$");

    /** Empty for non-resource URLs (discovery, /version) and for namespace objects themselves. */
    public static Optional<ApiCall> parse(String method, String pathAndQuery) {
        String path = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?')) : pathAndQuery;
        String query = pathAndQuery.contains("?") ? pathAndQuery.substring(pathAndQuery.indexOf('?') + 1) : "";
        String group;
        String resource;
        String name;
        String sub;
        Matcher core = CORE.matcher(path);
        Matcher named = NAMED_GROUP.matcher(path);
        if (core.matches()) {
            group = "";
            resource = core.group(1);
            name = core.group(2);
            sub = core.group(3);
        } else if (named.matches()) {
            group = named.group(1);
            resource = named.group(2);
            name = named.group(3);
            sub = named.group(4);
        } else {
            return Optional.empty();
        }
        boolean watch = query.contains("watch=true") || query.contains("watch=1");
        String verb = switch (method.toUpperCase()) {
            case "GET" -> name != null ? "get" : watch ? "watch" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name != null ? "delete" : "deletecollection";
            default -> method.toLowerCase();
        };
        return Optional.of(new ApiCall(verb, group, sub == null ? resource : resource + "/" + sub, method + " " + pathAndQuery));
    }

    private static final Pattern NAMESPACE = Pattern.compile("^/apis?/.*?/namespaces/([^/?]+)/.*$");

    /** The namespace of a namespaced call (empty for cluster-wide calls): what a Role's rules apply to. */
    public String namespace() {
        Matcher m = NAMESPACE.matcher(path.substring(path.indexOf(' ') + 1));
        return m.matches() ? m.group(1) : "";
    }

    /** The object's name (empty for collection calls): what an RBAC rule's resourceNames match. */
    public String name() {
        String p = path.substring(path.indexOf(' ') + 1);
        p = p.contains("?") ? p.substring(0, p.indexOf('?')) : p;
        Matcher core = CORE.matcher(p);
        Matcher named = NAMED_GROUP.matcher(p);
        String n = core.matches() ? core.group(2) : named.matches() ? named.group(3) : null;
        return n == null ? "" : n;
    }
}
