// Fuzzes the memo reader with its evidence figures (core/playbook/memo.cpp, svgfigure.cpp):
// bytes -> parseJson -> memoFromJson; every figure that reads is drawn as SVG (the tick loops
// over user-chosen ranges must end) and survives a JSON round trip of the memo.
#include "figure/figure.h"
#include "fuzzsupport.h"
#include "io/jsonfields.h"
#include "playbook/memo.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto json = io::parseJson(text, fuzz::kInputName);
    if (!json) {
        fuzz::checkError(json.error());
        return 0;
    }
    // A bare figure object, as an evidence item holds it.
    if (auto figure = figure::figureFromJson(*json, "figure")) {
        const std::string svg = figure::renderFigureSvg(*figure);
        fuzz::require(svg.starts_with("<svg"), "figure SVG does not start with <svg");
        fuzz::require(svg.size() < (std::size_t(64) << 20), "figure SVG larger than 64 MB");
    }
    auto memo = playbook::memoFromJson(*json, fuzz::kInputName);
    if (!memo) {
        fuzz::require(!memo.error().message.empty(), "memo error without a message");
        fuzz::require(io::isValidUtf8(memo.error().message), "memo error is not UTF-8",
                      memo.error().toString());
        return 0;
    }
    for (const auto& item : memo->evidence)
        fuzz::require(figure::renderFigureSvg(item.figure).starts_with("<svg"),
                      "evidence SVG does not start with <svg");
    auto again =
        playbook::memoFromJson(nlohmann::json::parse(playbook::toJson(*memo).dump()), "again");
    fuzz::require(again.hasValue(), "a memo that read does not read back",
                  again ? std::string() : again.error().toString());
    return 0;
}
