package io.queuegate.system;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One text per API description, whatever order the service wrote its members in: keys sorted at every level, two
 * spaces of indentation, one member per line and a final newline, so that a committed file changes only where the
 * API does and a review shows which line.
 */
final class ApiDescriptions {

    private static final DefaultIndenter INDENTER = new DefaultIndenter("  ", "\n");

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
        .withSeparators(Separators.createDefaultInstance()
            .withObjectNameValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
        .withObjectIndenter(INDENTER)
        .withArrayIndenter(INDENTER);

    private ApiDescriptions() {
    }

    static String canonical(JsonNode description) {
        return JsonMapper.shared().writer().with(PRETTY).writeValueAsString(sorted(description)) + "\n";
    }

    /** Where two canonical texts first part, with a line of each; null when they are the same. */
    static String firstDifference(String committed, String served) {
        if (committed.equals(served)) {
            return null;
        }
        String[] was = committed.split("\n", -1);
        String[] is = served.split("\n", -1);
        for (int line = 0; line < Math.max(was.length, is.length); line++) {
            String a = line < was.length ? was[line] : "(end of file)";
            String b = line < is.length ? is[line] : "(end of file)";
            if (!a.equals(b)) {
                return "from line " + (line + 1) + ": committed `" + a.strip() + "`, served `" + b.strip() + "`";
            }
        }
        return "in line endings";
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> members = new TreeMap<>();
            node.forEachEntry((name, value) -> members.put(name, sorted(value)));
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            members.forEach(copy::set);
            return copy;
        }
        if (node.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            node.forEach(item -> items.add(sorted(item)));
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            items.forEach(copy::add);
            return copy;
        }
        return node;
    }
}
