// topocast-cli lessons: the lesson plans — a list, the document docs/teaching.md is (--markdown),
// or every answer held against the presets' schedules (--check).
#include "commands.h"

#include "topocast/io/lessons.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

namespace fs = std::filesystem;

struct LessonsCommand {
    std::string file;    ///< empty: the installed lessons, else the source tree's
    std::string presets; ///< empty: the folder of scenarios beside the lessons
    bool markdown = false;
    bool check = false;
};

/// share/topocast beside this program (bin/), installed; else the source tree it was built from.
fs::path dataDir()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = self.parent_path().parent_path() / "share" / "topocast";
        if (fs::is_regular_file(installed / "lessons.json"))
            return installed;
    }
    return fs::path(TOPOCAST_RESOURCES_DIR);
}

int lessons(const LessonsCommand& o, Io& io)
{
    const fs::path data = dataDir();
    // Installed, the lessons lie beside the scenarios; in the source tree, in resources/lessons/.
    const fs::path installed = data / "lessons.json";
    const fs::path file = !o.file.empty()                  ? fs::path(o.file)
                          : fs::is_regular_file(installed) ? installed
                                                           : data / "lessons" / "lessons.json";
    const LessonBook book = loadLessons(file);
    if (o.markdown) {
        io.out << lessonBookMarkdown(book) << "\n";
        return 0;
    }
    if (o.check) {
        const fs::path presets = o.presets.empty() ? data / "scenarios" : fs::path(o.presets);
        const std::vector<std::string> findings = lessonFindings(book, presets);
        std::size_t checks = 0;
        for (const Lesson& l : book.lessons)
            for (const LessonItem& item : l.items)
                checks += item.checks.size();
        for (const std::string& f : findings)
            io.out << f << "\n";
        io.out << fmt::format("{}: {} lessons, {} checks against the schedules of {}: {}\n", file.string(),
                              book.lessons.size(), checks, presets.string(),
                              findings.empty() ? "every answer holds" : fmt::format("{} do not hold", findings.size()));
        return findings.empty() ? 0 : 1;
    }
    for (std::size_t i = 0; i < book.lessons.size(); ++i) {
        const Lesson& l = book.lessons[i];
        io.out << fmt::format("{}. {} ({}): {}\n", i + 1, l.title, l.id, fmt::join(l.presets, ", "));
    }
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "lessons",
    .help = "the lesson plans: their list, the teaching document (--markdown) or every answer checked against the "
            "schedules (--check)",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<LessonsCommand>();
            sub.add_option("--file", o->file, "a lessons file (default: the installed share/topocast/lessons.json)");
            sub.add_option("--presets", o->presets,
                           "the folder of the presets the lessons name (default: beside the lessons)");
            auto* md = sub.add_flag("--markdown", o->markdown, "print the lessons as docs/teaching.md holds them");
            sub.add_flag(
                   "--check", o->check,
                   "hold every answer that names receivers, counts them or gives steps or TCD against the preset's "
                   "schedule; exit 1 when one does not hold")
                ->excludes(md);
            return [o](Io& io) { return lessons(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
