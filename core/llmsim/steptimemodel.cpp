#include "llmsim/steptimemodel.h"

#include "llmsim/modelshape.h"
#include "llmsim/profilesteptime.h"
#include "llmsim/rooflinesteptime.h"

#include <filesystem>

namespace bs::llmsim {

double LinearStepTime::stepS(std::span<const ScheduledChunk> chunks) const
{
    double prefillTokens = 0.0;
    double decodeSeqs = 0.0;
    double contextTokens = 0.0;
    for (const ScheduledChunk& chunk : chunks) {
        if (chunk.isDecode())
            decodeSeqs += 1.0;
        else
            prefillTokens += chunk.newTokens;
        contextTokens += double(chunk.computedTokens) + chunk.newTokens;
    }
    const double ms = m_spec.baseMs + m_spec.perPrefillTokenMs * prefillTokens +
                      m_spec.perDecodeSeqMs * decodeSeqs + m_spec.perContextTokenMs * contextTokens;
    return ms * 1e-3;
}

namespace {

std::string resolve(const std::string& path, const std::string& baseDirectory)
{
    if (path.empty() || baseDirectory.empty() || isBuiltinModelConfig(path) ||
        std::filesystem::path(path).is_absolute())
        return path;
    return (std::filesystem::path(baseDirectory) / path).string();
}

} // namespace

Expected<std::shared_ptr<const StepTimeModel>> makeStepTimeModel(const StepSpec& spec,
                                                                 const std::string& baseDirectory)
{
    if (spec.kind == StepSpec::Kind::Linear)
        return std::shared_ptr<const StepTimeModel>(std::make_shared<LinearStepTime>(spec));
    if (spec.kind == StepSpec::Kind::Roofline) {
        auto roofline = loadRooflineStepTime(spec, resolve(spec.modelConfig, baseDirectory));
        if (!roofline)
            return roofline.error();
        return std::shared_ptr<const StepTimeModel>(std::move(*roofline));
    }
    auto profile = loadProfileStepTime(resolve(spec.profileDirectory, baseDirectory),
                                       resolve(spec.modelConfig, baseDirectory), spec.overheadMs);
    if (!profile)
        return profile.error();
    return std::shared_ptr<const StepTimeModel>(std::move(*profile));
}

} // namespace bs::llmsim
