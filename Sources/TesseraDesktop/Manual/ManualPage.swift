import Foundation

/// A manual page (man(7) source) written from the command tree `--help` prints from, so the two say the
/// same: the synopsis, each command's abstract, discussion and options with their defaults, then the keys
/// from the key table and whatever fixed sections the program adds (files, environment).
package struct ManualPage: Sendable {
    /// A term and what it means: an option, a key, a file.
    package struct Entry: Sendable, Equatable {
        package var term: String
        package var text: String

        package init(term: String, text: String) {
            self.term = term
            self.text = text
        }
    }

    /// A titled list of entries, with an optional paragraph before them and lines shown as they are (an
    /// example file) after them.
    package struct Section: Sendable, Equatable {
        package var title: String
        package var intro: String?
        package var entries: [Entry]
        package var example: [String]

        package init(title: String, intro: String? = nil, entries: [Entry] = [], example: [String] = []) {
            self.title = title
            self.intro = intro
            self.entries = entries
            self.example = example
        }
    }

    package var tool: ToolInfo
    package var section = 1
    package var version: String
    /// The date in the page's footer (`YYYY-MM-DD`); empty leaves it out.
    package var date = ""
    /// The DESCRIPTION's first paragraph, before the root command's own discussion.
    package var description: String?
    /// The subcommand that runs when none is named: its synopsis is also given without its name.
    package var defaultCommand: String?
    /// The KEYS section's subsections ("Both views", "Strip", ...); none leaves the section out.
    package var keys: [Section] = []
    /// The keys as a discussion gives them to `--help` (a paragraph of its own); left out of the discussion
    /// when the KEYS section lists them.
    package var keysHelpText: String?
    /// Sections after the commands and keys: FILES, ENVIRONMENT, SEE ALSO.
    package var trailing: [Section] = []

    package init(tool: ToolInfo, version: String) {
        self.tool = tool
        self.version = version
    }

    package func render() -> String {
        var roff = RoffText()
        let name = tool.command.commandName
        roff.request("TH", name.uppercased(), String(section), date, "\(name.capitalized) \(version)", "User Commands")
        // Left-aligned and unhyphenated: option names and paths must not be split or stretched.
        roff.request("nh")
        roff.request("ad", "l")
        roff.request("SH", "NAME")
        roff.text(name + " - " + Self.lowercasingFirstLetter(Self.withoutFinalPeriod(tool.command.abstract ?? "")))

        let commands = leafCommands(of: tool.command, path: [name])
        roff.request("SH", "SYNOPSIS")
        for (index, command) in commands.enumerated() {
            if index > 0 { roff.request("br") }
            synopsis(of: command, into: &roff)
        }

        roff.request("SH", "DESCRIPTION")
        if let description { describe(description, into: &roff) }
        if let discussion = tool.command.discussion { describe(discussion, into: &roff) }
        if let defaultCommand {
            roff.request("PP")
            roff.raw("With no command, " + RoffText.bold(name) + " runs " + RoffText.bold(defaultCommand) + ".")
        }
        let general = (tool.command.arguments ?? []).filter(\.isDisplayed)
        if !general.isEmpty {
            roff.request("SS", "General options")
            for argument in general { option(argument, into: &roff) }
        }

        roff.request("SH", "COMMANDS")
        for command in commands {
            roff.request("SS", command.path.joined(separator: " "))
            if let abstract = command.info.abstract { roff.text(abstract) }
            if let discussion = command.info.discussion { describe(discussion, into: &roff) }
            for argument in command.info.arguments ?? [] where argument.isDisplayed && !Self.isHelp(argument) {
                option(argument, into: &roff)
            }
        }

        if !keys.isEmpty {
            roff.request("SH", "KEYS")
            for section in keys { subsection(section, into: &roff) }
        }
        for section in trailing {
            roff.request("SH", section.title.uppercased())
            body(of: section, into: &roff)
        }
        return roff.source
    }

    // MARK: - Commands

    private struct LeafCommand {
        var path: [String]
        var info: ToolInfo.Command
    }

    /// The commands that run something, with their full names (`tessera bench thumbs`); groups only lead
    /// to them, and hidden ones and ArgumentParser's `help` are left out.
    private func leafCommands(of command: ToolInfo.Command, path: [String]) -> [LeafCommand] {
        let shown = (command.subcommands ?? []).filter { $0.isDisplayed && $0.commandName != "help" }
        if shown.isEmpty { return path.count > 1 ? [LeafCommand(path: path, info: command)] : [] }
        return shown.flatMap { leafCommands(of: $0, path: path + [$0.commandName]) }
    }

    private func synopsis(of command: LeafCommand, into roff: inout RoffText) {
        var words = command.path.map(RoffText.bold)
        if command.path.count == 2, command.path[1] == defaultCommand {
            words[1] = "[" + words[1] + "]"
        }
        let arguments = (command.info.arguments ?? []).filter { $0.isDisplayed && !Self.isHelp($0) }
        if arguments.contains(where: { $0.kind != .positional }) { words.append("[" + RoffText.italic("options") + "]") }
        for positional in arguments where positional.kind == .positional {
            var word = RoffText.italic(positional.valueName ?? "argument")
            if positional.isRepeating == true { word += "..." }
            words.append(positional.isOptional == true ? "[" + word + "]" : word)
        }
        roff.raw(words.joined(separator: " "))
    }

    private func option(_ argument: ToolInfo.Argument, into roff: inout RoffText) {
        roff.request("TP")
        var term: String
        switch argument.kind {
        case .positional:
            term = RoffText.italic(argument.valueName ?? "argument")
            if argument.isRepeating == true { term += "..." }
        case .option, .flag:
            let names = (argument.names ?? []).sorted { ($0.kind == .short ? 0 : 1) < ($1.kind == .short ? 0 : 1) }
            term = names.map { RoffText.bold($0.spelling) }.joined(separator: ", ")
            if argument.kind == .option { term += " " + RoffText.italic(argument.valueName ?? "value") }
        }
        roff.raw(term)
        var text = argument.abstract ?? ""
        if let defaultValue = argument.defaultValue, !defaultValue.isEmpty {
            text += " (default: \(defaultValue))"
        }
        roff.text(text)
        if let discussion = argument.discussion, !discussion.isEmpty {
            roff.request("IP")
            roff.text(discussion)
        }
    }

    /// A discussion as `--help` prints it: paragraphs between blank lines, filled; indented lines (a table
    /// typed with spaces) kept as they are. The keys' paragraph is left out when the KEYS section lists them.
    private func describe(_ discussion: String, into roff: inout RoffText) {
        for paragraph in discussion.split(separator: "\n\n", omittingEmptySubsequences: true) {
            if !keys.isEmpty, String(paragraph) == keysHelpText { continue }
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.contains(where: { !$0.allSatisfy(\.isWhitespace) }) else { continue }
            roff.request("PP")
            var index = 0
            while index < lines.count {
                let indented = lines[index].hasPrefix(" ")
                var end = index
                while end < lines.count, lines[end].hasPrefix(" ") == indented { end += 1 }
                let run = Array(lines[index..<end])
                if indented { roff.literal(run) } else { roff.text(run.joined(separator: "\n")) }
                index = end
            }
        }
    }

    // MARK: - Lists

    private func subsection(_ section: Section, into roff: inout RoffText) {
        roff.request("SS", section.title)
        body(of: section, into: &roff)
    }

    private func body(of section: Section, into roff: inout RoffText) {
        if let intro = section.intro { describe(intro, into: &roff) }
        for entry in section.entries {
            roff.request("TP")
            roff.raw(RoffText.bold(entry.term))
            roff.text(entry.text)
        }
        if !section.example.isEmpty {
            roff.request("PP")
            roff.request("RS", "4")
            roff.literal(section.example)
            roff.request("RE")
        }
    }

    // MARK: - Words

    private static func isHelp(_ argument: ToolInfo.Argument) -> Bool {
        argument.names?.contains { $0.kind == .long && $0.name == "help" } ?? false
    }

    private static func withoutFinalPeriod(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// "An image viewer" becomes "an image viewer" after the name's dash; "SDL ..." stays.
    private static func lowercasingFirstLetter(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase == true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
