// JSON form of Device and Health (the `diskvet list --json` shape, reused by reports): fields that
// are not known are absent, never zero.
#pragma once

#include <boost/json.hpp>

#include "devices/device.hpp"
#include "devices/health.hpp"
#include "devices/nvme_error_log.hpp"
#include "devices/self_test.hpp"
#include "devices/smart_counters.hpp"
#include "devices/smart_logs.hpp"
#include "devices/write_accounting.hpp"

namespace diskvet::devices {

void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const Health& h);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const Device& d);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const NvmeFacts& f);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const FileSystemFacts& f);
// The before/after delta the report carries; unknown members absent.
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const HealthDelta& d);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const WriteAccounting& a);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const ErrorLogReview& r);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const SmartCounterReview& r);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const SmartLogReview& r);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const WriteAmplification& w);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const SelfTestOutcome& o);
// The reverse, for reading saved reports; unknown members are ignored, missing ones stay unknown.
Health tag_invoke(boost::json::value_to_tag<Health>, const boost::json::value& v);
Device tag_invoke(boost::json::value_to_tag<Device>, const boost::json::value& v);

}  // namespace diskvet::devices
